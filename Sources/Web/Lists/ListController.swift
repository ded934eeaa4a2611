import Foundation
import HTTPServer
import Inventory

/// Stock lists and shopping lists: the page, its filters, quick actions and bulk actions.
struct ListController {
    let items: Items
    let settings: HouseholdSettings
    let renderer: Renderer
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get("/folders/{id}", .signedIn) { context in
            let member = try context.signedIn
            let folder = try items.folder(try context.id(), householdId: member.householdId)
            return renderer.response(try page(context, folder), context)
        }
        // Quick actions on one row. Each answers by going back to the row it came from
        // (`#item-N`, the notice above it), or with the row itself when a script asks.
        router.post("/items/{id}/quantity", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let delta = Double(context.field("delta")) ?? .nan
            let quantity: Double
            do {
                quantity = try items.adjustQuantity(id, by: delta, householdId: member.householdId, by: member.memberId)
            } catch InventoryError.validation(let fields) {
                // A hand-made step (`delta=inf`), or + past the largest quantity.
                let t = context.locale
                let page = ErrorPage(status: 422, heading: t["error_422_title"], message: t[fields["delta"] ?? "quantity_step_invalid"])
                return renderer.response(page, context, status: 422)
            }
            // Reaching zero asks what to do with the item.
            if quantity == 0, delta < 0 {
                return .redirect(to: "/items/\(id)/empty?return=\(ListQuery.encoded(context.returnPath(fallback: "/") + "#item-\(id)"))")
            }
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { Notices.quantityNotice($0, t: context.locale) }
            }
            return ListQuery.back(context, at: id, ["changed": "\(id)"])
        }
        router.post("/items/{id}/opened", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            try items.markOpened(id, householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { context.locale.format("notice_opened", ["name": $0.name]) }
            }
            return ListQuery.back(context, at: id, ["opened": "\(id)"])
        }
        // Shopping lists only: "Mark urgent" / "Not urgent" in the row's menu (`urgent` = 1 or 0).
        router.post("/items/{id}/urgent", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let urgent = context.field("urgent") == "1"
            try items.setUrgent(id, urgent, householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { Notices.urgentNotice($0, t: context.locale) }
            }
            return ListQuery.back(context, at: id, ["urgent": urgent ? "1" : "0"])
        }
        router.post("/items/{id}/delete", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let name = try items.item(id, householdId: member.householdId).name
            try items.trash([id], householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                let text = context.locale.format("notice_deleted_named", ["name": name])
                return try rows.notice(context, RowNotice(at: nil, text: text, undoIds: "\(id)"))
            }
            // Back at the neighbouring row (the delete button names it), else at the notice on top.
            return ListQuery.back(context, at: Int64(context.field("next")), ["deleted": "\(id)"])
        }
        router.post("/items/{id}/buy-again", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let lists = try items.folders(householdId: member.householdId, kind: .shopping)
            guard let target = Int64(context.field("shopping")) ?? (lists.count == 1 ? lists[0].id : nil) else {
                // Several shopping lists and none chosen yet: ask which.
                let item = try items.item(id, householdId: member.householdId)
                return renderer.response(ChoicePage.buyAgain(item: item, lists: lists, back: context.returnPath(fallback: "/"), t: context.locale), context)
            }
            try items.buyAgain(id, onto: target, householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                let list = lists.first { $0.id == target }.map { displayName($0, context.locale) } ?? ""
                return try rows.response(context, itemId: id) { _ in context.locale.format("notice_copied", ["list": list]) }
            }
            return ListQuery.back(context, at: id, ["copied": "\(target)"])
        }
        router.get("/items/{id}/empty", .writer) { context in
            let member = try context.signedIn
            let item = try items.item(try context.id(), householdId: member.householdId)
            let lists = try items.folders(householdId: member.householdId, kind: .shopping)
            return renderer.response(ChoicePage.empty(item: item, lists: lists, back: context.returnPath(fallback: "/"), t: context.locale), context)
        }
        // Several ticked items at once, in one transaction.
        router.post("/folders/{id}/bulk", .writer) { context in
            let member = try context.signedIn
            let folder = try items.folder(try context.id(), householdId: member.householdId)
            let back = context.returnPath(fallback: "/folders/\(folder.id!)")
            return try BulkActions(items: items).answer(context, back: back, shoppingList: folder.kind == .shopping ? folder.id : nil)
        }
    }

    var rows: RowFragment { RowFragment(items: items, settings: settings, clock: clock) }

    /// The applied filters in words, for the one line the closed filter panel shows.
    static func activeFilters(_ filter: ListFilter, t: Catalog) -> [String] {
        var words: [String] = []
        if !filter.text.isEmpty { words.append(t.format("filter_chip_text", ["text": filter.text])) }
        // In the form's order, whatever order the address lists them in.
        words += ItemInput.kinds.filter(filter.kinds.contains).map { t["kind_\($0)"] }
        if let status = filter.status { words.append(t["status_\(status)"]) }
        if filter.expiredIn != nil { words.append(t["filter_expired"]) }
        return words
    }

    func page(_ context: RequestContext, _ folder: Folder) throws -> ItemListPage {
        let member = try context.signedIn
        let t = context.locale
        let query = context.request.query
        let household = try settings.household(member.householdId)
        let window = DueWindow(household: household, now: clock.now())
        // "Expired" is a stock list's filter: shopping items have no due date.
        let expired = folder.kind == .stock && query["due"] == "expired"
        let filter = ListFilter(
            text: query["q"] ?? "", kinds: query.all("kind"), status: query["status"].flatMap { $0.isEmpty ? nil : $0 },
            expiredIn: expired ? window : nil)
        let result = try items.page(of: folder, filter: filter, page: Int(query["page"] ?? "") ?? 1)
        let allFolders = try items.folders(householdId: member.householdId)
        let stockFolders = allFolders.filter { $0.kind == .stock }
        let remembered = folder.lastStockFolderId ?? stockFolders.first?.id

        // The list's own address with its filters, for paging links and for coming back after actions.
        func link(page: Int) -> String {
            var items = [URLQueryItem]()
            if !filter.text.isEmpty { items.append(URLQueryItem(name: "q", value: filter.text)) }
            items += filter.kinds.map { URLQueryItem(name: "kind", value: $0) }
            if let status = filter.status { items.append(URLQueryItem(name: "status", value: status)) }
            if filter.expiredIn != nil { items.append(URLQueryItem(name: "due", value: "expired")) }
            if page > 1 { items.append(URLQueryItem(name: "page", value: "\(page)")) }
            var components = URLComponents()
            components.path = "/folders/\(folder.id!)"
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? components.path
        }

        let shared = RowContext(
            canWrite: member.role.canWrite, isStock: folder.kind == .stock,
            hasShoppingLists: allFolders.contains { $0.kind == .shopping }, t: t)
        let (notice, undoIds) = Notices.notice(query, folders: allFolders, t: t)
        let rows = result.items.map { ItemRowView($0, window: window, t: t) }
        // Next to its row when the row is here; at the top otherwise.
        let rowNotice = Notices.rowNotice(query, rows: rows, generic: (notice, undoIds), t: t)

        return ItemListPage(
            folderId: folder.id!, name: displayName(folder, t), isStock: folder.kind == .stock,
            total: t.count("item_count", result.total),
            rows: rows, shared: shared, rowNotice: rowNotice,
            query: filter.text,
            kinds: ItemInput.kinds.map { Choice(value: $0, label: t["kind_\($0)"], selected: filter.kinds.contains($0)) },
            statuses: [Choice(value: "", label: t["filter_any_status"], selected: filter.status == nil)]
                + ItemInput.statuses.map { Choice(value: $0, label: t["status_\($0)"], selected: filter.status == $0) },
            isExpired: filter.expiredIn != nil,
            activeFilters: Self.activeFilters(filter, t: t),
            isFiltered: filter.isFiltered,
            page: result.page, pages: result.pages,
            pageLabel: t.pageOf(result.page, result.pages),
            previous: result.page > 1 ? link(page: result.page - 1) : nil,
            next: result.page < result.pages ? link(page: result.page + 1) : nil,
            here: link(page: result.page),
            moveTargets: allFolders.filter { $0.id != folder.id }.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: false) },
            stockTargets: stockFolders.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: $0.id == remembered) },
            shoppingTargets: folder.kind == .stock
                ? allFolders.filter { $0.kind == .shopping }.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: false) } : [],
            shoppingCount: allFolders.filter { $0.kind == .shopping }.count,
            notice: rowNotice == nil ? notice : nil, undoIds: undoIds)
    }
}

/// A stock or shopping list (`Templates/list.mustache`, compiled).
struct ItemListPage: CompiledPage {
    let folderId: Int64
    let name: String
    let isStock: Bool
    let total: String
    let rows: [ItemRowView]
    let shared: RowContext
    var rowNotice: RowNotice? = nil
    let query: String
    let kinds: [Choice]
    let statuses: [Choice]
    var isExpired = false
    /// The applied filters in words ("“milk”", "Fish", "Expired").
    var activeFilters: [String] = []
    let isFiltered: Bool
    let page: Int
    let pages: Int
    let pageLabel: String
    let previous: String?
    let next: String?
    let here: String
    let moveTargets: [Choice]
    let stockTargets: [Choice]
    /// A stock list's bulk bar puts the ticked items on a shopping list ("Buy again"), as Use soon's does.
    var shoppingTargets: [Choice] = []
    let shoppingCount: Int
    let notice: String?
    let undoIds: String?

    func title(_ t: Catalog) -> String { name }

    var isShopping: Bool { !isStock }
    var hasRows: Bool { !rows.isEmpty }
    var hasPages: Bool { pages > 1 }
    var hasMoveTargets: Bool { !moveTargets.isEmpty }
    var hasStockTargets: Bool { !stockTargets.isEmpty }
    var hasShoppingTargets: Bool { !shoppingTargets.isEmpty }
    var rowList: ItemRowsView { ItemRowsView(rows, shared: shared, here: here, notice: rowNotice, t: shared.t) }
}

/// A small page that asks one question with a few buttons (buy again where, what to do at zero;
/// `Templates/choice.mustache`, compiled).
struct ChoicePage: CompiledPage {
    struct Option: Sendable {
        let action: String
        let label: String
        var isPrimary = false
        var hidden: [FormField] = []
        var isDanger = false
    }

    let heading: String
    let message: String
    let back: String
    let options: [Option]
    let cancelLabel: String

    func title(_ t: Catalog) -> String { heading }

    static func buyAgain(item: Item, lists: [Folder], back: String, t: Catalog) -> ChoicePage {
        ChoicePage(
            heading: t["buy_again_heading"], message: t.format("buy_again_message", ["name": item.name]), back: back,
            options: lists.map { Option(action: "/items/\(item.id!)/buy-again", label: displayName($0, t), hidden: [.hidden("shopping", "\($0.id!)")]) },
            cancelLabel: t["cancel"])
    }

    static func empty(item: Item, lists: [Folder], back: String, t: Catalog) -> ChoicePage {
        var options = [Option(action: "/items/\(item.id!)/delete", label: t["empty_delete"], isPrimary: true)]
        options += lists.map {
            Option(
                action: "/folders/\(item.folderId)/bulk", label: t.format("empty_move_to", ["list": displayName($0, t)]),
                hidden: [.hidden("action", "move"), .hidden("ids", "\(item.id!)"), .hidden("target", "\($0.id!)")])
        }
        return ChoicePage(
            heading: t.format("empty_heading", ["name": item.name]), message: t["empty_message"], back: back,
            options: options, cancelLabel: t["empty_keep"])
    }
}
