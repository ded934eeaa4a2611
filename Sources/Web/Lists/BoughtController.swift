import Foundation
import HTTPServer
import Inventory

/// "Bought" on a shopping list: one page listing the ticked items, each with how many and until
/// when, and, where the stock list already has a row of the same name and unit, whether to add
/// to it. One button puts them all away (`Items.buy`, one transaction).
struct BoughtController {
    let items: Items
    let renderer: Renderer
    /// The answers to a purchase sent from a phone: where the item is now.
    let rows: RowFragment

    /// The page's address for these items of shopping list `list`, bought into `stock`.
    static func address(list: Folder.ID, ids: [Item.ID], stock: Folder.ID?, back: String) -> String {
        var components = URLComponents()
        components.path = Route.folder(list).bought
        components.queryItems =
            ids.map { URLQueryItem(name: "ids", value: "\($0)") } + (stock.map { [URLQueryItem(name: "stock", value: "\($0)")] } ?? [])
            + [URLQueryItem(name: "return", value: back)]
        return components.string ?? components.path
    }

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Folder.pattern.bought, .writer, use: form)
        router.post(Route.Folder.pattern.bought, .writer, use: buy)
    }

    /// The page for the ticked items (`ids`), bought into a stock list (`stock`).
    func form(_ context: RequestContext) throws -> Response {
        let ids = context.request.query.all("ids").compactMap(Item.ID.init)
        let stock = Folder.ID(context.request.query["stock"] ?? "")
        return try answer(context, ids: ids, stock: stock) { id, item in
            // Something used up asks for one, as the shopping row does.
            BoughtInput(id: id, quantity: Quantity.text(item.quantity == 0 ? 1 : item.quantity))
        }
    }

    /// The ticked items put away, or the page again for another stock list or with what to change.
    func buy(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let ids = context.request.form.all("ids").compactMap(Item.ID.init)
        let stock = Folder.ID(context.field("stock"))
        let typed = { (id: Item.ID, _: Item) in
            BoughtInput(
                id: id, quantity: context.field("quantity_\(id)"), due: context.field("due_\(id)"),
                addToExisting: context.field("join_\(id)") == "add")
        }
        // "Use this list" (without JavaScript): the same page for another stock list, as typed.
        guard context.field("action") == "save", let stock else { return try answer(context, ids: ids, stock: stock, typed) }
        // One row from a phone that was offline, answered in place.
        if RowFragment.wanted(context), ids.count == 1 { return try buyFromPhone(context, id: ids[0], into: stock) }
        let listId: Folder.ID = try context.id()
        let back = context.returnPath(fallback: Route.folder(listId).path)
        do {
            let lines = try lines(context, ids: ids).map { typed($0.id, $0) }
            try items.buy(lines, into: stock, in: member.household, by: member.memberId)
        } catch InventoryError.validation(let errors) {
            return try answer(context, ids: ids, stock: stock, errors: errors, status: 422, typed)
        }
        return .redirect(to: ListQuery.adding(["bought": "\(ids.count)"], to: back))
    }

    /// One row bought into `stock` from a phone that was offline (the bulk bar's "Mark bought"
    /// there), as the list showed it: its quantity, no due date, joining a row of the same name.
    /// Sent with its id (`intent`), it is applied once; answered in place: where the item is now,
    /// or why it could not be bought (someone bought or deleted it meanwhile).
    func buyFromPhone(_ context: RequestContext, id: Item.ID, into stock: Folder.ID) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let line = BoughtInput(id: id, quantity: context.field("quantity_\(id)"), due: "", addToExisting: context.field("join_\(id)") == "add")
        let intent = IntentId(context.field("intent"))
        // Sent again after its answer was lost: the row may be gone (added to the stock list's row).
        if let intent, try items.wasApplied(intent, by: member.memberId) {
            return try rows.notice(context, RowNotice(at: nil, text: t.format(.noticeAlreadySaved, ["name": context.field("name")])))
        }
        let name: String
        do {
            name = try lines(context, ids: [id])[0].name
            try items.buy([line], into: stock, intent: intent, in: member.household, by: member.memberId)
        } catch InventoryError.notFound {
            return try rows.whereabouts(context, of: id)
        } catch InventoryError.alreadyApplied {
            // Bought the first time; that answer was lost on the way.
            return try rows.whereabouts(context, of: id)
        } catch InventoryError.validation(let fields) {
            let problem = fields.values.first ?? .quantityInvalid
            return renderer.response(ErrorPage(status: 422, heading: t[.error422Title], message: t[problem: problem]), context, status: 422)
        }
        // In the stock list now (on its own row, or added to the row of the same name there).
        let folder = try items.folder(stock, in: member.household)
        return try rows.notice(context, RowNotice(at: nil, text: t.format(.noticeMovedTo, ["name": name, "folder": displayName(folder, t)])))
    }

    /// The ticked items, all on this shopping list (anything else is not found).
    func lines(_ context: RequestContext, ids: [Item.ID]) throws -> [Item] {
        let member = try context.signedIn
        let list = try items.folder(try context.id(), in: member.household)
        guard list.kind == .shopping else { throw InventoryError.notFound }
        return try ids.map { id in
            let item = try items.item(id, in: member.household)
            guard item.folderId == list.id else { throw InventoryError.notFound }
            return item
        }
    }

    func answer(
        _ context: RequestContext, ids: [Item.ID], stock requested: Folder.ID?, errors: [String: FieldProblem] = [:], status: Int = 200,
        _ input: (Item.ID, Item) -> BoughtInput
    ) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let listId: Folder.ID = try context.id()
        let back = context.returnPath(fallback: Route.folder(listId).path)
        let bought = try lines(context, ids: ids)
        let list = try items.folder(listId, in: member.household)
        let stockLists = try items.folders(in: member.household, kind: .stock)
        guard !bought.isEmpty, !stockLists.isEmpty else { return .redirect(to: ListQuery.adding(["notice": "none_selected"], to: back)) }
        let stock = stockLists.first { $0.id == requested } ?? stockLists.first { $0.id == list.lastStockFolderId } ?? stockLists[0]
        let matches = try items.stockMatches(for: ids, within: stock.id, in: member.household)
        // The due date each usually gets in this stock list (see `ShelfLife`).
        let usual = try items.usualDues(for: bought, into: stock.id, in: member.household)
        let today = items.today(in: TimeZone(identifier: member.timeZone) ?? .gmt)
        let page = BoughtPage(
            listId: listId, back: back, listName: displayName(list, t),
            stockLists: stockLists.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: $0.id == stock.id) },
            stockError: errors["folder"].map { t[problem: $0] },
            lines: bought.map { item in
                var typed = input(item.id, item)
                // A due date left as it was filled in (empty on the page's first opening) is the usual
                // one for the stock list chosen now; a date the person typed or cleared stays.
                let suggested = usual[item.id]?.description ?? ""
                if typed.due == context.field("suggested_\(item.id)") { typed.due = suggested }
                // Opened on a list page, every line joins its match unless the person says otherwise.
                let joins = context.request.method == "GET" ? true : typed.addToExisting
                return BoughtPage.Line(
                    item: item, typed: typed, suggested: suggested, match: matches[item.id], joins: joins, errors: errors, today: today, t: t,
                    urls: renderer.staticURLs)
            },
            hasErrors: !errors.isEmpty, saveLabel: t.count(.boughtSave, bought.count))
        return renderer.response(page, context, status: status)
    }
}

struct BoughtPage: CompiledPage {
    struct Line: Sendable {
        let id: Item.ID
        let name: String
        let thumbnail: String
        let quantity: FormField
        let due: FormField
        /// The due date filled in from the usual shelf life ("" when nothing is learned), sent back
        /// so that another stock list's can replace it while the person has not changed it.
        let suggested: String
        /// "Add to the existing Milk (1 bottle)", when the stock list has a row of the same name and unit.
        let join: String?
        let joins: Bool
        let separate: String

        init(
            item: Item, typed: BoughtInput, suggested: String, match: Item?, joins: Bool, errors: [String: FieldProblem], today: CalendarDay,
            t: Catalog, urls: StaticURLs
        ) {
            let id = item.id
            self.id = id
            name = item.name
            thumbnail = urls.picture(item.picture, size: .small, kind: item.kind)
            quantity = FormField(
                name: "quantity_\(id)", label: t.format(.boughtQuantity, ["unit": t[.unit, item.unit]]), value: typed.quantity,
                error: errors["quantity_\(id)"].map { t[problem: $0] }, maxLength: 20, inputMode: "decimal")
            self.suggested = suggested
            due = FormField.due(
                name: "due_\(id)", label: t[.fieldDue], value: typed.due, error: errors["due_\(id)"].map { t[problem: $0] },
                hint: !suggested.isEmpty && typed.due == suggested ? t[.boughtDueUsual] : nil, today: today, t)
            join = match.map {
                var amount = t.quantity($0.quantity, unit: $0.unit)
                if let day = $0.due {
                    amount = t.format(.boughtAmountDue, ["quantity": amount, "date": DisplayFormat.day(day, locale: t)])
                }
                return t.format(.boughtJoin, ["name": $0.name, "amount": amount])
            }
            self.joins = joins
            separate = t[.boughtSeparate]
        }
    }

    let listId: Folder.ID
    let back: String
    let listName: String
    let stockLists: [Choice]
    let stockError: String?
    let lines: [Line]
    let hasErrors: Bool
    let saveLabel: String

    func title(_ t: Catalog) -> String { t[.boughtHeading] }
}
