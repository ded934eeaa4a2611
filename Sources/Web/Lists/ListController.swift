import Foundation
import HTTPServer
import Inventory

/// Stock lists and shopping lists: the page, its filters and its bulk actions (the actions on one
/// row are `ItemsController`'s).
struct ListController {
    let items: Items
    let settings: HouseholdSettings
    let renderer: Renderer
    let clock: WallClock
    /// The row a script asks for after "Add to the list".
    let rows: RowFragment

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Folder.pattern.path, .signedIn, use: show)
        router.post(Route.Folder.pattern.bulk, .writer, use: bulk)
        router.post(Route.Folder.pattern.add, .writer, use: add)
    }

    /// A stock or shopping list with its filters (`q`, `kind`, `status`, `due`, `page`).
    func show(_ context: RequestContext) throws -> Response {
        renderer.response(try page(context, folderId: try context.id()), context)
    }

    /// Several ticked items at once, in one transaction (see `BulkActions`).
    func bulk(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folder = try items.folder(try context.id(), in: member.household)
        let back = context.returnPath(fallback: Route.folder(folder.id).path)
        return try BulkActions(items: items).answer(context, back: back, shoppingList: folder.kind == .shopping ? folder.id : nil)
    }

    /// "Add to the list" on a shopping list: a new row, or the row of that name and unit already
    /// there (see `Items.addToList`). Back at the row with its notice, or the row itself for a
    /// script; a missing or too long name shows the list again with the message beside the field
    /// and what was typed. A phone that was offline sends its id (`intent`) with it.
    func add(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folderId: Folder.ID = try context.id()
        let form = try context.form(ListAddForm.self)
        let t = context.locale
        var input = ItemInput()
        input.name = form.name
        if let quantity = form.quantity, !quantity.isEmpty { input.quantity = quantity }
        if let unit = form.unit, !unit.isEmpty { input.unit = unit }
        let intent = IntentId(form.intent)
        let added: ListAddition
        do {
            added = try items.addToList(
                input, list: folderId, intent: intent, in: member.household, by: member.memberId, timeZone: TimeZone(identifier: member.timeZone) ?? .gmt)
        } catch let errors as ItemFieldErrors {
            var page = try page(context, folderId: folderId)
            page.addName = form.name
            page.addError = errors.fields.sorted { $0.key.rawValue < $1.key.rawValue }.first.map { t[problem: $0.value] }
            return renderer.response(page, context, status: 422)
        } catch InventoryError.alreadyApplied {
            // Sent again from a phone: the row of that name, if it is still there, says it is saved.
            guard RowFragment.wanted(context) else { return .redirect(to: context.returnPath(fallback: Route.folder(folderId).path)) }
            return try rows.notice(context, RowNotice(at: nil, text: t.format(.noticeAlreadySaved, ["name": input.name])))
        }
        // Sent from a phone that was offline: the list of what was sent offers to take it back.
        var undo: [NoticeButton] = []
        if intent != nil {
            if let before = added.joined {
                if added.quantity != before {
                    undo = [NoticeButton(label: t[.undo], path: Route.item(added.id).quantity, name: "delta", value: Quantity.text(before - added.quantity))]
                }
            } else {
                undo = [NoticeButton(label: t[.undo], path: Route.item(added.id).delete, name: "next", value: "")]
            }
        }
        guard RowFragment.wanted(context) else { return ListQuery.back(context, at: added.id, ["listed": added.joined == nil ? "new" : "joined"]) }
        return try rows.response(context, itemId: added.id) { row in
            RowNotice(at: added.id, text: Notices.listedNotice(row, joined: added.joined != nil, t: t), buttons: undo)
        }
    }

    /// The applied filters in words, for the one line the closed filter panel shows.
    static func activeFilters(_ filter: ListFilter, t: Catalog) -> [String] {
        var words: [String] = []
        if !filter.text.isEmpty { words.append(t.format(.filterChipText, ["text": filter.text])) }
        // In the form's order, whatever order the address lists them in.
        words += ItemKind.allCases.filter(filter.kinds.contains).map { t[.kind, $0] }
        if let status = filter.status { words.append(t[.status, status]) }
        if filter.expiredIn != nil { words.append(t[.filterExpired]) }
        return words
    }

    func page(_ context: RequestContext, folderId: Folder.ID) throws -> ItemListPage {
        let member = try context.signedIn
        let t = context.locale
        let query = context.request.query
        // One snapshot: the folder, the household, the page of items and every folder.
        let contents = try items.listPage(
            folderId, in: member.household, text: query["q"] ?? "", kinds: query.all("kind"),
            status: query["status"].flatMap { $0.isEmpty ? nil : $0 }, expiredOnly: query["due"] == "expired", page: Int(query["page"] ?? "") ?? 1,
            now: clock.now())
        let (folder, window, filter, result, allFolders) = (contents.folder, contents.window, contents.filter, contents.page, contents.folders)
        let stockFolders = allFolders.filter { $0.kind == .stock }
        let remembered = folder.lastStockFolderId ?? stockFolders.first?.id

        // The list's own address with its filters, for paging links and for coming back after actions.
        func link(page: Int) -> String {
            var items = [URLQueryItem]()
            if !filter.text.isEmpty { items.append(URLQueryItem(name: "q", value: filter.text)) }
            items += filter.kinds.map { URLQueryItem(name: "kind", value: $0.rawValue) }
            if let status = filter.status { items.append(URLQueryItem(name: "status", value: status.rawValue)) }
            if filter.expiredIn != nil { items.append(URLQueryItem(name: "due", value: "expired")) }
            if page > 1 { items.append(URLQueryItem(name: "page", value: "\(page)")) }
            var components = URLComponents()
            components.path = Route.folder(folder.id).path
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? components.path
        }

        let shared = RowContext(
            canWrite: member.role.canWrite, isStock: folder.kind == .stock,
            hasShoppingLists: allFolders.contains { $0.kind == .shopping }, t: t)
        let rows = result.items.map { ItemRowView($0, window: window, t: t, urls: renderer.staticURLs) }
        let notice = Notices.placed(query, rows: rows, folders: allFolders, t: t)
        // A shopping list's rows in the basket, on whichever page they are: "Put away N" opens the
        // Bought page for exactly those.
        let putAway = try (folder.kind == .shopping && member.role.canWrite ? items.inBasket(folder.id, in: member.household) : nil).map { ids in
            PutAway(
                href: BoughtController.address(list: folder.id, ids: ids, stock: nil, back: link(page: result.page)),
                label: t.format(.putAway, ["count": "\(ids.count)"]), isEmpty: ids.isEmpty)
        }

        return ItemListPage(
            folderId: folder.id, name: displayName(folder, t), isStock: folder.kind == .stock,
            total: t.count(.itemCount, result.total),
            rows: rows, shared: shared, rowNotice: notice.row,
            query: filter.text,
            kinds: ItemKind.allCases.map { Choice(value: $0.rawValue, label: t[.kind, $0], selected: filter.kinds.contains($0)) },
            statuses: [Choice(value: "", label: t[.filterAnyStatus], selected: filter.status == nil)]
                + ItemStatus.allCases.map { Choice(value: $0.rawValue, label: t[.status, $0], selected: filter.status == $0) },
            isExpired: filter.expiredIn != nil,
            activeFilters: Self.activeFilters(filter, t: t),
            isFiltered: filter.isFiltered,
            pager: Pager(page: result.page, of: result.pages, t: t) { link(page: $0) },
            here: link(page: result.page),
            moveTargets: allFolders.filter { $0.id != folder.id }.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: false) },
            stockTargets: stockFolders.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: $0.id == remembered) },
            shoppingTargets: folder.kind == .stock
                ? allFolders.filter { $0.kind == .shopping }.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: false) } : [],
            shoppingCount: allFolders.filter { $0.kind == .shopping }.count,
            notice: notice.top, undoIds: notice.undoIds, putAway: putAway)
    }
}

/// "Put away 3" under a shopping list: the Bought page for the rows in the basket (kept, hidden,
/// while none are, so a live update only fills it in).
struct PutAway {
    let href: String
    let label: String
    let isEmpty: Bool
}

/// A stock or shopping list (`Templates/list.mustache`, compiled).
struct ItemListPage: CompiledPage {
    let folderId: Folder.ID
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
    let pager: Pager
    let here: String
    let moveTargets: [Choice]
    let stockTargets: [Choice]
    /// A stock list's bulk bar puts the ticked items on a shopping list ("Buy again"), as Use soon's does.
    var shoppingTargets: [Choice] = []
    let shoppingCount: Int
    let notice: String?
    let undoIds: String?
    var putAway: PutAway? = nil
    /// "Add to the list" (shopping lists): what was typed, when it comes back with a problem.
    var addName = ""
    var addError: String? = nil

    func title(_ t: Catalog) -> String { name }

    var isShopping: Bool { !isStock }
    var hasRows: Bool { !rows.isEmpty }
    var hasMoveTargets: Bool { !moveTargets.isEmpty }
    var hasStockTargets: Bool { !stockTargets.isEmpty }
    var hasShoppingTargets: Bool { !shoppingTargets.isEmpty }
    var rowList: ItemRowsView { ItemRowsView(rows, shared: shared, here: here, notice: rowNotice, t: shared.t) }
}
