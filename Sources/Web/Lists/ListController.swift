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
                let page = ErrorPage(status: 422, heading: t[.error422Title], message: t[named: fields["delta"] ?? "quantity_step_invalid"])
                return renderer.response(page, context, status: 422)
            }
            // Reaching zero asks what to do with the item.
            if quantity == 0, delta < 0 {
                return .redirect(to: "/items/\(id)/empty?return=\(Self.encoded(context.returnPath(fallback: "/") + "#item-\(id)"))")
            }
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { Self.quantityNotice($0, t: context.locale) }
            }
            return Self.back(context, at: id, ["changed": "\(id)"])
        }
        router.post("/items/{id}/opened", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            try items.markOpened(id, householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { context.locale.format(.noticeOpened, ["name": $0.name]) }
            }
            return Self.back(context, at: id, ["opened": "\(id)"])
        }
        // Shopping lists only: "Mark urgent" / "Not urgent" in the row's menu (`urgent` = 1 or 0).
        router.post("/items/{id}/urgent", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let urgent = context.field("urgent") == "1"
            try items.setUrgent(id, urgent, householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                return try rows.response(context, itemId: id) { Self.urgentNotice($0, t: context.locale) }
            }
            return Self.back(context, at: id, ["urgent": urgent ? "1" : "0"])
        }
        router.post("/items/{id}/delete", .writer) { context in
            let member = try context.signedIn
            let id = try context.id()
            let name = try items.item(id, householdId: member.householdId).name
            try items.trash([id], householdId: member.householdId, by: member.memberId)
            if RowFragment.wanted(context) {
                let text = context.locale.format(.noticeDeletedNamed, ["name": name])
                return try rows.notice(context, RowNotice(at: nil, text: text, undoIds: "\(id)"))
            }
            // Back at the neighbouring row (the delete button names it), else at the notice on top.
            return Self.back(context, at: Int64(context.field("next")), ["deleted": "\(id)"])
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
                return try rows.response(context, itemId: id) { _ in context.locale.format(.noticeCopied, ["list": list]) }
            }
            return Self.back(context, at: id, ["copied": "\(target)"])
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

    /// Back to the page a row action came from, at the row `id` (`#item-N`), where the notice
    /// named by `values` is shown above it (see `rowNotice`).
    static func back(_ context: RequestContext, at id: Int64?, _ values: [String: String]) -> Response {
        var values = values
        if let id { values["at"] = "\(id)" }
        let path = context.returnPath(fallback: "/").split(separator: "#", maxSplits: 1).first.map(String.init) ?? "/"
        return .redirect(to: adding(values, to: path) + (id.map { "#item-\($0)" } ?? ""))
    }

    static func quantityNotice(_ row: ItemRowView, t: Catalog) -> String {
        t.format(.noticeQuantity, ["name": row.name, "quantity": row.amount])
    }

    static func urgentNotice(_ row: ItemRowView, t: Catalog) -> String {
        t.format(row.urgent ? .noticeUrgent : .noticeNotUrgent, ["name": row.name])
    }

    /// The notice for the row named by `at` in the address, when that row is on the page: the
    /// generic notice (deleted, copied, restored) or one about the row itself.
    static func rowNotice(_ query: Parameters, rows: [ItemRowView], generic: (notice: String?, undoIds: String?), t: Catalog) -> RowNotice? {
        guard let at = query["at"].flatMap(Int64.init), let row = rows.first(where: { $0.id == at }) else { return nil }
        if query["changed"] != nil { return RowNotice(at: at, text: quantityNotice(row, t: t)) }
        if query["opened"] != nil { return RowNotice(at: at, text: t.format(.noticeOpened, ["name": row.name])) }
        if query["urgent"] != nil { return RowNotice(at: at, text: urgentNotice(row, t: t)) }
        return generic.notice.map { RowNotice(at: at, text: $0, undoIds: generic.undoIds) }
    }

    static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "/"
    }

    /// `path` with query values replaced or added.
    static func adding(_ values: [String: String], to path: String) -> String {
        var components = URLComponents(string: path) ?? URLComponents()
        var query = (components.queryItems ?? []).filter {
            values[$0.name] == nil
                && ![
                    "deleted", "copied", "copies", "moved", "bought", "notice", "added", "at", "changed", "opened", "urgent", "restored", "imported", "updated",
                ]
                .contains($0.name)
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { query.append(URLQueryItem(name: name, value: value)) }
        components.queryItems = query.isEmpty ? nil : query
        // URLComponents leaves "+" as is, which a query reads back as a space ("milk+" → "milk ").
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? path
    }

    /// What the last action on a list's rows did, read from the address it came back to
    /// (see `adding`), and the ids an Undo restores.
    static func notice(_ query: Parameters, folders: [Folder], t: Catalog) -> (notice: String?, undoIds: String?) {
        if let deleted = query["deleted"], !deleted.isEmpty {
            return (t.count(.noticeDeleted, deleted.split(separator: ",").count), deleted)
        } else if let added = query["added"] {
            return (t.count(.noticeAdded, Int(added) ?? 0), nil)
        } else if let imported = query["imported"].flatMap(Int.init), let updated = query["updated"].flatMap(Int.init) {
            return (t.format(.noticeImported, ["new": String(imported), "updated": String(updated)]), nil)
        } else if let moved = query["moved"] {
            return (t.count(.noticeMoved, Int(moved) ?? 0), nil)
        } else if let restored = query["restored"] {
            return (t.count(.noticeRestored, Int(restored) ?? 0), nil)
        } else if let bought = query["bought"] {
            return (t.count(.noticeBought, Int(bought) ?? 0), nil)
        } else if let copied = query["copied"].flatMap(Int64.init), let list = folders.first(where: { $0.id == copied }) {
            // Several from the bulk bar, or one row's "Buy again".
            if let copies = query["copies"].flatMap(Int.init) { return (t.count(.noticeCopiedMany, copies, ["list": displayName(list, t)]), nil) }
            return (t.format(.noticeCopied, ["list": displayName(list, t)]), nil)
        } else if query["notice"] == "none_selected" {
            return (t[.noticeNoneSelected], nil)
        } else if query["warn"] == "remind_after_due" {
            return (t[.warnRemindAfterDue], nil)
        }
        return (nil, nil)
    }

    /// The applied filters in words, for the one line the closed filter panel shows.
    static func activeFilters(_ filter: ListFilter, t: Catalog) -> [String] {
        var words: [String] = []
        if !filter.text.isEmpty { words.append(t.format(.filterChipText, ["text": filter.text])) }
        // In the form's order, whatever order the address lists them in.
        words += ItemInput.kinds.filter(filter.kinds.contains).map { t[.kind, $0] }
        if let status = filter.status { words.append(t[.status, status]) }
        if filter.expiredIn != nil { words.append(t[.filterExpired]) }
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
        let (notice, undoIds) = Self.notice(query, folders: allFolders, t: t)
        let rows = result.items.map { ItemRowView($0, window: window, t: t) }
        // Next to its row when the row is here; at the top otherwise.
        let rowNotice = Self.rowNotice(query, rows: rows, generic: (notice, undoIds), t: t)

        return ItemListPage(
            folderId: folder.id!, name: displayName(folder, t), isStock: folder.kind == .stock,
            total: t.count(.itemCount, result.total),
            rows: rows, shared: shared, rowNotice: rowNotice,
            query: filter.text,
            kinds: ItemInput.kinds.map { Choice(value: $0, label: t[.kind, $0], selected: filter.kinds.contains($0)) },
            statuses: [Choice(value: "", label: t[.filterAnyStatus], selected: filter.status == nil)]
                + ItemInput.statuses.map { Choice(value: $0, label: t[.status, $0], selected: filter.status == $0) },
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
            heading: t[.buyAgainHeading], message: t.format(.buyAgainMessage, ["name": item.name]), back: back,
            options: lists.map { Option(action: "/items/\(item.id!)/buy-again", label: displayName($0, t), hidden: [.hidden("shopping", "\($0.id!)")]) },
            cancelLabel: t[.cancel])
    }

    static func empty(item: Item, lists: [Folder], back: String, t: Catalog) -> ChoicePage {
        var options = [Option(action: "/items/\(item.id!)/delete", label: t[.emptyDelete], isPrimary: true)]
        options += lists.map {
            Option(
                action: "/folders/\(item.folderId)/bulk", label: t.format(.emptyMoveTo, ["list": displayName($0, t)]),
                hidden: [.hidden("action", "move"), .hidden("ids", "\(item.id!)"), .hidden("target", "\($0.id!)")])
        }
        return ChoicePage(
            heading: t.format(.emptyHeading, ["name": item.name]), message: t[.emptyMessage], back: back,
            options: options, cancelLabel: t[.emptyKeep])
    }
}
