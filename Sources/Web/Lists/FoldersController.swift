import HTTPServer
import Inventory
import TemplateRuntime

/// The folders page and its edit mode: create, rename, re-icon, reorder, delete.
struct FoldersController {
    let folders: Folders
    let items: Items
    let settings: HouseholdSettings
    let keepRules: KeepRules
    let renderer: Renderer
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.home, .signedIn, use: home)
        router.get(Route.folderSettings, .writer, use: editMode)
        router.post(Route.folders, .writer, use: create)
        router.get(Route.Folder.pattern.edit, .writer, use: editForm)
        router.post(Route.Folder.pattern.path, .writer, use: save)
        router.post(Route.Folder.pattern.move, .writer, use: move)
        router.get(Route.Folder.pattern.delete, .writer, use: confirmDelete)
        router.post(Route.Folder.pattern.delete, .writer, use: delete)
    }

    /// The folders page: stock lists and shopping lists, with what is due; or the results of a search (`q`).
    func home(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        // A search across the household shows its results in place of the folders.
        let text = (context.request.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { return renderer.response(try searchPage(context, text: text), context) }
        let overview = try folders.overview(in: member.household)
        // Kept products under their minimum, told on the list their refills go to.
        let below = try keepRules.belowMinimum(in: member.household)
        func rows(_ kind: FolderKind) -> [HomePage.Row] {
            overview.filter { $0.kind == kind }.map {
                HomePage.Row(
                    id: $0.id, name: displayName($0, t), iconURL: renderer.staticURLs.folderIcon($0.icon), count: t.count(.itemCount, $0.itemCount),
                    expired: $0.expired > 0 ? t.format(.countExpired, ["count": "\($0.expired)"]) : nil,
                    soon: $0.dueSoon > 0 ? t.format(.countSoon, ["count": "\($0.dueSoon)"]) : nil,
                    belowMinimum: below.listId == $0.id ? t.count(.keepBelowMinimum, below.count) : nil)
            }
        }
        // Expired and due within the window, across stock lists: what the use-soon page lists.
        let useSoon = overview.reduce(0) { $0 + $1.expired + $1.dueSoon }
        return renderer.response(
            HomePage(
                household: member.householdName, stock: rows(.stock), shopping: rows(.shopping),
                useSoon: t.format(.homeUseSoon, ["count": "\(useSoon)"]), hasUseSoon: useSoon > 0,
                clockIcon: renderer.staticURLs("icons/ui/clock.svg"), calendarIcon: renderer.staticURLs("icons/ui/calendar.svg")), context)
    }

    /// The folders' edit mode: names, icons, order, a new folder.
    func editMode(_ context: RequestContext) throws -> Response {
        renderer.response(try editPage(context, errors: [:]), context)
    }

    /// A new folder from the edit mode.
    func create(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(FolderForm.self)
        do {
            try folders.create(name: form.name, kind: FolderKind(rawValue: form.kind) ?? .stock, icon: form.icon, in: member.household)
            return .redirect(to: Route.folderSettings)
        } catch InventoryError.validation(let fields) {
            return renderer.response(try editPage(context, errors: context.locale.messages(fields)), context, status: 422)
        }
    }

    /// One folder's name and icon.
    func editForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folder = try items.folder(try context.id(), in: member.household)
        return renderer.response(folderPage(context, folder: folder, name: displayName(folder, context.locale), icon: folder.icon, errors: [:]), context)
    }

    /// One folder's name and icon, saved.
    func save(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folder = try items.folder(try context.id(), in: member.household)
        let form = try context.form(FolderForm.self)
        do {
            try folders.update(folder.id, name: form.name, icon: form.icon, in: member.household, shownName: displayName(folder, context.locale))
            return .redirect(to: Route.folderSettings)
        } catch InventoryError.validation(let fields) {
            let page = folderPage(
                context, folder: folder, name: form.name, icon: form.icon, errors: context.locale.messages(fields))
            return renderer.response(page, context, status: 422)
        }
    }

    /// One step up or down the folders' order (`step`).
    func move(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try folders.move(try context.id(), by: try context.form(FolderStepForm.self).step == "up" ? -1 : 1, in: member.household)
        return .redirect(to: Route.folderSettings)
    }

    /// What deleting the folder does (its items go to the trash), asked before it does.
    func confirmDelete(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folder = try items.folder(try context.id(), in: member.household)
        let count = try folders.itemCount(folder.id, in: member.household)
        let t = context.locale
        let message = count == 0 ? t[.folderDeleteEmpty] : t.count(.folderDeleteItems, count)
        return renderer.response(
            ChoicePage(
                heading: t.format(.folderDeleteHeading, ["name": displayName(folder, t)]), message: message, back: "/folders/edit",
                options: [.init(action: "/folders/\(folder.id)/delete", label: t[.folderDeleteConfirm], isPrimary: true, isDanger: true)],
                cancelLabel: t[.cancel]), context)
    }

    /// The folder deleted, its items to the trash.
    func delete(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try folders.delete(try context.id(), in: member.household, by: member.memberId)
        return .redirect(to: Route.folderSettings)
    }

    /// The household's items matching `text`, grouped by folder, with the lists' own rows (no
    /// checkboxes: bulk actions belong to one list). Row actions come back here through `return`.
    func searchPage(_ context: RequestContext, text: String) throws -> HomeSearchPage {
        let member = try context.signedIn
        let t = context.locale
        // One snapshot: the matches, the household and every folder.
        let contents = try items.searchPage(text, in: member.household)
        let (result, allFolders) = (contents.search, contents.folders)
        let window = DueWindow(household: contents.household, now: clock.now())
        let hasShoppingLists = allFolders.contains { $0.kind == .shopping }
        // Encoded by hand: URLComponents leaves "+" as is, which a query reads back as a space.
        let q = "?q=" + ListQuery.encoded(result.text)
        let here = "/" + q
        let groups = result.groups.map { group in
            let folder = group.folder
            let more = group.total > group.items.count
            return HomeSearchPage.Group(
                id: folder.id, name: displayName(folder, t), iconURL: renderer.staticURLs.folderIcon(folder.icon),
                count: t.count(.itemCount, group.total), rows: group.items.map { ItemRowView($0, window: window, t: t, urls: renderer.staticURLs) },
                shared: RowContext(
                    canWrite: member.role.canWrite, isStock: folder.kind == .stock, hasShoppingLists: hasShoppingLists, selectable: false, t: t),
                more: more ? t.format(.homeSearchMore, ["count": "\(group.total)", "folder": displayName(folder, t)]) : nil,
                moreHref: more ? Route.folder(folder.id).path + q : nil)
        }
        let (notice, undoIds) = Notices.notice(context.request.query, folders: allFolders, t: t)
        return HomeSearchPage(
            household: member.householdName, query: result.text, groups: groups, here: here,
            heading: t.format(.homeSearchHeading, ["query": result.text]),
            summary: t.count(.itemCount, result.total),
            empty: t.format(.homeSearchEmpty, ["query": result.text]),
            notice: notice, undoIds: undoIds)
    }

    func iconChoices(selected: String, t: Catalog) -> [Choice] {
        Folders.icons.map { Choice(value: $0, label: t[.icon, $0], selected: $0 == selected, iconURL: renderer.staticURLs.folderIcon($0)) }
    }

    func editPage(_ context: RequestContext, errors: [String: String]) throws -> FoldersEditPage {
        let member = try context.signedIn
        let t = context.locale
        let all = try folders.overview(in: member.household)
        let rows = all.enumerated().map { index, folder in
            FoldersEditPage.Row(
                id: folder.id, name: displayName(folder, t), iconURL: renderer.staticURLs.folderIcon(folder.icon),
                kind: t[folder.kind == .stock ? .kindStockList : .kindShoppingList],
                isFirst: index == 0, isLast: index == all.count - 1)
        }
        let posted = context.request.method == "POST"
        let kind = posted ? context.field("kind") : "stock"
        return FoldersEditPage(
            rows: rows, name: posted ? context.field("name") : "", nameError: errors["name"], iconError: errors["icon"],
            icons: iconChoices(selected: posted ? context.field("icon") : "box", t: t),
            kinds: [
                Choice(value: "stock", label: t[.kindStockList], selected: kind != "shopping"),
                Choice(value: "shopping", label: t[.kindShoppingList], selected: kind == "shopping"),
            ])
    }

    func folderPage(_ context: RequestContext, folder: Folder, name: String, icon: String, errors: [String: String]) -> FolderFormPage {
        FolderFormPage(
            id: folder.id, heading: context.locale.format(.folderEditHeading, ["name": displayName(folder, context.locale)]), name: name,
            nameError: errors["name"], iconError: errors["icon"], icons: iconChoices(selected: icon, t: context.locale))
    }
}

/// The folders page (`Templates/home.mustache`, compiled, through `HomeView`).
struct HomePage: CompiledPage {
    struct Row: Sendable {
        let id: Folder.ID
        let name: String
        let iconURL: String
        let count: String
        var expired: String? = nil
        var soon: String? = nil
        /// "3 below minimum": on the list the refills of kept products go to.
        var belowMinimum: String? = nil
    }

    let household: String
    let stock: [Row]
    let shopping: [Row]
    /// "Use soon · 7": the link to the use-soon page.
    let useSoon: String
    let hasUseSoon: Bool
    /// The shortcuts' icons (use soon, calendar), by their versioned addresses.
    let clockIcon: String
    let calendarIcon: String

    func title(_ t: Catalog) -> String { household }

    func render(in outer: PageChrome, into w: inout HTMLWriter) {
        HomeView(
            household: household, useSoon: useSoon, hasUseSoon: hasUseSoon, clockIcon: clockIcon, calendarIcon: calendarIcon, stock: stock,
            shopping: shopping
        ).render(in: outer, into: &w)
    }
}

/// The folders page answering a search: the same search field, then each folder with matches
/// (`Templates/home.mustache`, compiled, through `HomeView`).
struct HomeSearchPage: CompiledPage {
    struct Group: Sendable {
        let id: Folder.ID
        let name: String
        let iconURL: String
        let count: String
        let rows: [ItemRowView]
        let shared: RowContext
        /// "All 14 in Fridge", when the folder has more matches than are shown.
        let more: String?
        let moreHref: String?
    }

    let household: String
    let query: String
    let groups: [Group]
    let here: String
    let heading: String
    let summary: String
    let empty: String
    let notice: String?
    let undoIds: String?

    func title(_ t: Catalog) -> String { heading }

    func render(in outer: PageChrome, into w: inout HTMLWriter) {
        HomeView(
            household: household, query: query, searching: true, searchHeading: heading, summary: summary, here: here, empty: empty,
            groups: groups.map { HomeView.Group(group: $0, here: here) }, notice: notice, undoIds: undoIds
        ).render(in: outer, into: &w)
    }
}

/// What `Templates/home.mustache` reads: the folders, or the answer to a search.
struct HomeView {
    /// A folder with matches, and its rows (`partials/item-rows`).
    struct Group {
        let group: HomeSearchPage.Group
        /// The page the rows' actions come back to.
        let here: String

        var id: Folder.ID { group.id }
        var name: String { group.name }
        var iconURL: String { group.iconURL }
        var count: String { group.count }
        var more: String? { group.more }
        var moreHref: String? { group.moreHref }
        var rowList: ItemRowsView { ItemRowsView(group.rows, shared: group.shared, here: here, t: group.shared.t) }
    }

    let household: String
    var query = ""
    var searching = false
    var searchHeading = ""
    var summary = ""
    var here = ""
    var empty = ""
    var groups: [Group] = []
    var notice: String? = nil
    var undoIds: String? = nil
    var useSoon = ""
    var hasUseSoon = false
    var clockIcon = ""
    var calendarIcon = ""
    var stock: [HomePage.Row] = []
    var shopping: [HomePage.Row] = []

    var hasGroups: Bool { !groups.isEmpty }
}

struct FoldersEditPage: CompiledPage {
    struct Row: Sendable {
        let id: Folder.ID
        let name: String
        let iconURL: String
        let kind: String
        let isFirst: Bool
        let isLast: Bool
    }

    let rows: [Row]
    let name: String
    let nameError: String?
    let iconError: String?
    let icons: [Choice]
    let kinds: [Choice]

    func title(_ t: Catalog) -> String { t[.foldersEditHeading] }
}

struct FolderFormPage: CompiledPage {
    let id: Folder.ID
    let heading: String
    let name: String
    let nameError: String?
    let iconError: String?
    let icons: [Choice]

    func title(_ t: Catalog) -> String { heading }
}
