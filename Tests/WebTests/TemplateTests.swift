import Foundation
import Inventory
import Testing

@testable import Web

@Suite("Templates and catalogs")
struct TemplateTests {
    /// The day the pages with a due date field are rendered on.
    static let today = CalendarDay.today(in: .gmt, now: Date(timeIntervalSince1970: 1_795_000_000))
    let templates = repositoryRoot.appendingPathComponent("Templates")

    func templateFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "mustache" }
    }

    @Test func everyCatalogHasTheSameKeys() throws {
        let localizations = Localizations.embedded
        #expect(Set(localizations.catalogs.keys).isSuperset(of: ["en", "ja"]))
        for (code, catalog) in localizations.catalogs {
            #expect(
                catalog.keys == localizations.fallback.keys,
                "\(code) differs from en: \(catalog.keys.symmetricDifference(localizations.fallback.keys).sorted())")
            #expect(!catalog.texts.values.contains(""), "\(code) has an empty text")
        }
    }

    @Test func everyTextATemplateUsesExistsInEveryCatalog() throws {
        let localizations = Localizations.embedded
        let pattern = try Regex(#"\{\{\s*t\.([A-Za-z0-9_]+)\s*\}\}"#)
        var used: Set<String> = []
        for file in try templateFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                used.insert(
                    String(text[match.range]).replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
                        .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "t.", with: ""))
            }
        }
        #expect(!used.isEmpty)
        for (code, catalog) in localizations.catalogs {
            let missing = used.subtracting(catalog.keys)
            #expect(missing.isEmpty, "\(code) lacks \(missing.sorted())")
        }
    }

    @Test func noTemplateRendersUserTextUnescaped() throws {
        for file in try templateFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("{{{"), "\(file.lastPathComponent) uses {{{ }}}")
            #expect(!text.contains("{{&"), "\(file.lastPathComponent) uses {{& }}")
        }
    }

    @Test(arguments: ["en", "ja"])
    func everyPageRendersInEachLanguage(code: String) async throws {
        let renderer = Renderer()
        let locale = try #require(renderer.localizations.catalogs[code])
        var pages = samplePages(locale)
        pages += [400, 403, 404, 405, 413, 422, 500].map { ErrorPage(status: $0, locale: locale) }
        for page in pages {
            let (html, title) = Self.rendered(page, renderer, locale)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("<html lang=\"\(code)\">"))
            #expect(html.contains("<title>\(title) · \(locale[.appName])</title>"))
            #expect(html.contains("<h1"))
            #expect(!html.contains("{{"))
            // User text is escaped wherever it appears.
            #expect(!html.contains("<b>牛乳</b>"))
        }
    }

    /// A sample page rendered in `locale`, with its title.
    static func rendered(_ page: any CompiledPage, _ renderer: Renderer, _ locale: Catalog, member: SignedIn? = nil) -> (String, String) {
        (renderer.html(page, locale: locale, member: member, csrfToken: "token"), page.title(locale))
    }

    @Test(arguments: ["en", "ja"])
    func everyCompiledPageRendersInEachLanguage(code: String) async throws {
        let renderer = Renderer()
        let locale = try #require(renderer.localizations.catalogs[code])
        for page in listPages(locale) {
            let html = renderer.html(page, locale: locale)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("<html lang=\"\(code)\">"))
            #expect(html.contains("<title>\(page.title(locale)) · \(locale[.appName])</title>"))
            #expect(html.contains("<h1"))
            #expect(html.contains(locale[.filters]) || html.contains(locale[.filtersShort]))
            #expect(!html.contains("{{"))
            // User text is escaped wherever it appears.
            #expect(!html.contains("<b>牛乳</b>") && !html.contains("<b>milk</b>"))
        }
    }

    @Test func errorPagesSayWhatHappenedInBothLanguages() async throws {
        let renderer = Renderer()
        let ja = try #require(renderer.localizations.catalogs["ja"])
        let html = renderer.html(ErrorPage(status: 413, locale: ja), locale: ja)
        #expect(html.contains("サイズが大きすぎます"))
        #expect(html.contains("413"))
    }

    /// One of each page with sample values, errors included, so every branch of a template renders.
    func samplePages(_ t: Catalog) -> [any CompiledPage] {
        let field = FormField(name: "name", label: t[.fieldName], value: "Aki <b>", error: t[.nameRequired], hint: t[.passwordHint])
        let select = FormField(name: "language", label: t[.fieldLanguage], kind: .select, options: t.languageOptions(selected: "ja", among: [t]))
        let checkbox = FormField(name: "remember", label: t[.fieldRemember], kind: .checkbox, checked: true)
        return [
            FormPage(
                heading: t[.setupHeading], intro: t[.setupIntro], formError: t[.loginFailed], action: "/setup",
                submitLabel: t[.setupSubmit], fields: [field, select, checkbox], footerLink: ("/login", t[.loginHeading])),
            HomePage(
                household: "Home", stock: [.init(id: 1, name: "Fridge", iconURL: "/static/icons/folders/fridge.svg", count: "3")], shopping: [],
                useSoon: "Use soon · 3", hasUseSoon: true, clockIcon: "/static/icons/ui/clock.svg",
                calendarIcon: "/static/icons/ui/calendar.svg"),
            AccountPage(
                heading: t[.accountHeading], saved: t[.savedProfile], profileFields: [field, select], passwordFields: [field],
                devices: [
                    .init(id: 1, label: "Chrome · Android", signedIn: "Monday", lastSeen: "today", isCurrent: true),
                    .init(id: 2, label: "Safari · iPhone", signedIn: "Sunday", lastSeen: "yesterday", isCurrent: false),
                ]),
            SettingsPage(
                heading: t[.membersHeading], membersError: t[.lastOwner],
                members: [.init(id: 1, name: "Aki", login: "aki", role: t[.roleOwner], roleOptions: t.roleOptions(selected: .owner), isMe: true)],
                invitations: [.init(id: 3, role: t[.roleViewer], expires: "next week")], newLink: "http://x/join/abc",
                inviteRoles: t.roleOptions(selected: .member), householdFields: [field, select], householdSaved: t[.savedProfile]),
        ] + itemPages(t)
    }

    /// Three rows (expired with a note and user markup, due today, urgent) and two folders to choose.
    static func sampleRows(_ t: Catalog) -> (rows: [ItemRowView], choices: [Choice]) {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let household = Household(id: 1, draft: .init(name: "Home", timeZone: "Asia/Tokyo"))
        let window = DueWindow(household: household, now: now)
        var expired = Item(
            id: 1,
            draft: Item.Draft(
                householdId: 1, folderId: 1, name: "<b>牛乳</b> & milk", quantity: 1.5, due: window.today.adding(days: -1), status: .opened))
        expired.note = "note"
        let rows = [
            ItemRowView(expired, window: window, t: t, urls: .plain),
            ItemRowView(Item(id: 2, draft: Item.Draft(householdId: 1, folderId: 1, name: "Eggs", due: window.today)), window: window, t: t, urls: .plain),
            ItemRowView(Item(id: 3, draft: Item.Draft(householdId: 1, folderId: 2, name: "Rice", urgent: true)), window: window, t: t, urls: .plain),
        ]
        let choices: [Choice] = [Choice(value: "1", label: "Fridge", selected: true), Choice(value: "2", label: "Pantry", selected: false)]
        return (rows, choices)
    }

    func itemPages(_ t: Catalog) -> [any CompiledPage] {
        let (rows, choices) = Self.sampleRows(t)
        var input = ItemInput()
        input.name = "Milk"
        let drafts = [
            DraftView(index: 0, input: input, fieldsKind: .stock, errors: ["0.name": "!"], today: Self.today, t: t, urls: .plain, single: false),
            DraftView(index: 1, input: ItemInput(), fieldsKind: .shopping, errors: [:], today: Self.today, t: t, urls: .plain, single: false),
        ]
        return [
            EditorPage(
                heading: "Add", action: "/items/new", isNew: true, version: nil, stockFolders: choices, shoppingFolders: choices,
                unfitShoppingText: "{folder}", unfitStockText: "{folder}", drafts: drafts, canAddDraft: true, summary: "1 problem", returnTo: "",
                cancel: "/"),
            EditorPage(
                heading: "Edit", action: "/items/1", isNew: false, version: 3, stockFolders: choices, shoppingFolders: [],
                unfitShoppingText: "{folder}", unfitStockText: "{folder}", drafts: [drafts[0]], canAddDraft: false, summary: nil, returnTo: "/folders/1",
                cancel: "/items/1"),
            ConflictPage(
                heading: "Conflict", itemId: 1, message: "Choose",
                events: [.init(what: "Changed", detail: "Quantity", who: "Ken", when: "now")],
                clashes: [
                    .init(
                        label: "Quantity", name: "d0.quantity", id: "clash-quantity", theirs: .init(value: "3", shown: "3"), mine: .init(value: "5", shown: "5")
                    )
                ],
                rows: [.init(label: "Name", value: "Oat milk", source: "your change")], hidden: [.hidden("version", "4")]
            ),
            ItemPage(
                name: "Milk", id: 1, picture: "/static/illustrations/milk.svg", hasPicture: true, pictureAlt: "Milk", dueState: "expired",
                facts: [.init(label: "Due", value: "today")], history: [.init(what: "Created", detail: "Fridge", who: "Aki", when: "now")],
                folderId: 1, canWrite: true, photoError: "!", saved: "Saved"),
            ProductsPage(
                rows: [
                    .init(
                        id: 1, name: "Natto", barcode: "4901234567894", picture: "/static/illustrations/natto.svg", hasPicture: true,
                        details: "Other · Pack")
                ], notice: "Saved"),
            ProductPage(
                heading: "Product", id: 1, fields: [FormField(name: "name", label: "Name", value: "Natto", error: "!")],
                picture: PicturePicker(index: 0, input: input, error: "!", t: t, urls: .plain, fieldPrefix: "")),
            TrashPage(rows: [.init(id: 1, name: "Milk", folder: "Fridge", deleted: "today")], notice: "Restored"),
            FoldersEditPage(
                rows: [.init(id: 1, name: "Fridge", iconURL: "/static/icons/folders/fridge.svg", kind: "Stock", isFirst: true, isLast: false)], name: "",
                nameError: "!", iconError: nil, icons: [Choice(value: "box", label: "Box", selected: true, iconURL: "/static/icons/folders/box.svg")],
                kinds: choices),
            FolderFormPage(
                id: 1, heading: "Edit", name: "Fridge", nameError: nil, iconError: "!",
                icons: [Choice(value: "box", label: "Box", selected: true, iconURL: "/static/icons/folders/box.svg")]
            ),
            ChoicePage(
                heading: "Which list?", message: "Choose", back: "/folders/1",
                options: [.init(action: "/items/1/buy-again", label: "Supermarket", hidden: [.hidden("shopping", "4")])], cancelLabel: "Cancel"),
        ] + duePages(t, rows: rows) + findPages(t, rows: rows)
    }

    func duePages(_ t: Catalog, rows: [ItemRowView]) -> [any CompiledPage] {
        let shared = RowContext(canWrite: true, isStock: true, hasShoppingLists: true, selectable: false, t: t)
        let day = { (number: Int, count: Int?) in
            CalendarPage.Day(
                number: "\(number)", href: count.map { _ in "/calendar?month=2026-11&day=2026-11-0\(number)" }, label: "<b>牛乳</b>",
                count: count.map(String.init), isToday: number == 2, isExpired: number == 1, isSelected: number == 3, isPast: number < 2)
        }
        let week: [CalendarPage.Day] = [.blank, day(1, 2), day(2, nil), day(3, 1), day(4, nil), day(5, 4), day(6, nil)]
        let link = CalendarPage.Link(href: "/calendar?month=2026-10", label: "October", title: "October 2026")
        let choices = [Choice(value: "1", label: "Fridge", selected: true), Choice(value: "2", label: "<b>牛乳</b>", selected: false)]
        let milk = Item(id: 1, draft: Item.Draft(householdId: 1, folderId: 2, name: "<b>牛乳</b>", quantity: 2, due: "2026-11-30"))
        return [
            UseSoonPage(
                groups: [
                    .init(state: "expired", heading: t[.soonExpired], count: 1, rows: [rows[0]]),
                    .init(state: "today", heading: t[.soonToday], count: 4, rows: [rows[1]]),
                ],
                shared: shared, here: "/soon?page=2", summary: "5", empty: "", pager: Pager(pageLabel: "2/3", previous: "/soon", next: "/soon?page=3"),
                notice: "Deleted", undoIds: "1", moveTargets: choices, shoppingTargets: choices),
            BoughtPage(
                listId: 2, back: "/folders/2", listName: "Supermarket", stockLists: choices, stockError: t[.folderNotStock],
                lines: [
                    .init(
                        item: milk, typed: BoughtInput(id: 1, quantity: "x", due: "2026-13-01"), suggested: "2026-12-04", match: milk,
                        joins: true, errors: ["quantity_1": .quantityInvalid, "due_1": .dueInvalid], today: Self.today, t: t, urls: .plain)
                ], hasErrors: true, saveLabel: t.count(.boughtSave, 1)),
            UseSoonPage(
                groups: [], shared: shared, here: "/soon", summary: "0", empty: t[.soonEmptyToday], pager: Pager(pageLabel: "1/1", previous: nil, next: nil),
                notice: nil, undoIds: nil),
            CalendarPage(
                monthTitle: "November 2026", weekdays: [.init(short: "Sun", long: "Sunday")], days: week, todayLabel: "today", previous: link, next: link,
                thisMonth: "/calendar",
                day: .init(
                    heading: "Due on Nov 3", summary: "1 item", rows: [rows[0]], shared: shared,
                    here: "/calendar?month=2026-11&day=2026-11-03", pager: Pager(pageLabel: "1/2", previous: nil, next: "/calendar?day=2026-11-03&page=2"),
                    notice: "Deleted", undoIds: "1")),
            CalendarPage(
                monthTitle: "November 2026", weekdays: [], days: week, todayLabel: "today", previous: nil, next: link, thisMonth: nil,
                day: .init(
                    heading: "Due on Nov 4", summary: "0 items", rows: [], shared: shared, here: "/calendar",
                    pager: Pager(pageLabel: "1/1", previous: nil, next: nil), notice: nil, undoIds: nil)),
        ]
    }

    /// The folders page answering a search (results, nothing found) and a list with filters applied.
    func findPages(_ t: Catalog, rows: [ItemRowView]) -> [any CompiledPage] {
        let shared = RowContext(canWrite: true, isStock: true, hasShoppingLists: true, selectable: false, t: t)
        let group = HomeSearchPage.Group(
            id: 1, name: "<b>Fridge</b>", iconURL: "/static/icons/folders/fridge.svg", count: "12", rows: rows, shared: shared, more: "All 12 in Fridge",
            moreHref: "/folders/1?q=milk")
        return [
            HomeSearchPage(
                household: "Home", query: "<b>牛乳</b>", groups: [group], here: "/?q=milk", heading: "Results", summary: "12 items", empty: "",
                notice: "Deleted", undoIds: "1"),
            HomeSearchPage(
                household: "Home", query: "natto", groups: [], here: "/?q=natto", heading: "Results", summary: "0 items", empty: "Nothing",
                notice: nil, undoIds: nil),
        ]
    }

    /// The stock and shopping list (compiled templates): every branch, a filtered list, no rows.
    func listPages(_ t: Catalog) -> [ItemListPage] {
        let (rows, choices) = Self.sampleRows(t)
        let list = { (stock: Bool) in
            ItemListPage(
                folderId: 1, name: "Fridge", isStock: stock, total: "3", rows: rows,
                shared: RowContext(canWrite: true, isStock: stock, hasShoppingLists: true, t: t), query: "milk", kinds: choices, statuses: choices,
                isFiltered: true, pager: Pager(pageLabel: "2/3", previous: "/folders/1", next: "/folders/1?page=3"),
                here: "/folders/1?page=2", moveTargets: choices, stockTargets: choices, shoppingCount: 1, notice: "Deleted", undoIds: "1,2")
        }
        let shared = RowContext(canWrite: true, isStock: true, hasShoppingLists: true, selectable: false, t: t)
        return [
            list(true), list(false),
            ItemListPage(
                folderId: 1, name: "Fridge", isStock: true, total: "3", rows: rows, shared: shared, query: "milk",
                kinds: [Choice(value: "fish", label: "Fish", selected: true)], statuses: [Choice(value: "fish", label: "Fish", selected: true)],
                isExpired: true, activeFilters: ["“<b>milk</b>”", "Fish", "Expired"], isFiltered: true,
                pager: Pager(pageLabel: "1/1", previous: nil, next: nil), here: "/folders/1?q=milk&kind=fish&due=expired", moveTargets: [], stockTargets: [],
                shoppingCount: 0,
                notice: nil, undoIds: nil),
            ItemListPage(
                folderId: 1, name: "Empty", isStock: true, total: "0", rows: [], shared: shared, query: "", kinds: [], statuses: [],
                isFiltered: false, pager: Pager(pageLabel: "1/1", previous: nil, next: nil), here: "/folders/1", moveTargets: [],
                stockTargets: [], shoppingCount: 0, notice: nil, undoIds: nil),
        ]
    }
}

extension StaticURLs {
    /// Plain addresses, for views made without the app's public files.
    static let plain = StaticURLs(files: nil)
}
