import Foundation
import TemplateRuntime
import Testing

@testable import Inventory
@testable import Web

/// Text that tries to leave an attribute or an element: a quote followed by a combining mark is
/// one Swift `Character`, which escaping per Character misses.
let hostileTexts = [
    "x\"\u{301} formaction=/settings/push/delete y=\"\u{301}",
    "x\"\u{FE0F} formaction=/settings/push/delete y=\"\u{FE0F}",
    "x'\u{301} formaction=/settings/push/delete y='\u{301}",
    "<b\u{301}>bold</b\u{301}> <script>alert(1)</script>",
    "fish & chips &amp; &lt;",
]

/// Whether `html` holds a markup character (quote, angle bracket) followed by a combining
/// mark or a variation selector: what user text would look like if it escaped unescaped.
func hasUnescapedCluster(_ html: String) -> Bool {
    let scalars = Array(html.unicodeScalars)
    for (index, scalar) in scalars.enumerated().dropLast() where "\"'<>".unicodeScalars.contains(scalar) {
        if [0x301, 0xFE0F].contains(scalars[index + 1].value) { return true }
    }
    return false
}

/// Whether `html` holds `part`, compared as UTF-8 bytes (String's search compares Characters).
func holds(_ html: String, _ part: String) -> Bool {
    let haystack = Array(html.utf8), needle = Array(part.utf8)
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}

@Suite("Escaping user text per scalar")
struct EscapingTests {
    let templates = repositoryRoot.appendingPathComponent("Templates")

    @Test(arguments: hostileTexts)
    func theEscaperReplacesEveryMarkupScalar(text: String) {
        let escaped = HTMLEscaping.escape(text)
        for byte in escaped.utf8 {
            #expect(![0x22, 0x27, 0x3C, 0x3E].contains(byte), "\(escaped) keeps a markup byte")
        }
        // Undone byte by byte (String's own search works per Character, the very mistake):
        // every & starts an entity the escaper wrote, and the text comes back whole.
        let entities: [(String, UInt8)] = [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&#39;", 0x27)]
        let bytes = Array(escaped.utf8)
        var back: [UInt8] = [], index = 0
        while index < bytes.count {
            if bytes[index] == 0x26 {
                let entity = entities.first { bytes[index...].starts(with: $0.0.utf8) }
                #expect(entity != nil, "a bare & in \(escaped)")
                guard let entity else { return }
                back.append(entity.1)
                index += entity.0.utf8.count
            } else {
                back.append(bytes[index])
                index += 1
            }
        }
        #expect(back == Array(text.utf8))
    }

    @Test func aQuoteWithACombiningMarkIsEscapedAsAQuote() {
        #expect(HTMLEscaping.escape("\"\u{301}") == "&quot;\u{301}")
        #expect(HTMLEscaping.escape("'\u{FE0F}") == "&#39;\u{FE0F}")
        #expect(HTMLEscaping.escape("<\u{301}") == "&lt;\u{301}")
    }

    @Test(arguments: hostileTexts)
    func templatesEscapeInAttributesElementsPartialsAndTheLayout(text: String) async throws {
        let renderer = Renderer()
        let t = renderer.localizations.fallback
        let member = SignedIn(
            sessionId: 1, memberId: 1, memberName: text, login: "aki", role: .owner, language: nil,
            household: HouseholdScope(1), householdName: text, timeZone: "UTC", csrfToken: "token")
        let icons = [Choice(value: "box", label: text, selected: true, iconURL: "/static/icons/folders/box.svg")]
        let pages: [any CompiledPage] = [
            // A name in aria-label and value attributes and in element content.
            FoldersEditPage(
                rows: [.init(id: 1, name: text, iconURL: "/static/icons/folders/box.svg", kind: text, isFirst: false, isLast: false)], name: text,
                nameError: text, iconError: nil, icons: icons, kinds: [Choice(value: "1", label: text, selected: true)]),
            FolderFormPage(id: 1, heading: text, name: text, nameError: text, iconError: nil, icons: icons),
            // A value through a partial (partials/field).
            FormPage(
                heading: text, intro: text, formError: text, action: "/setup", submitLabel: text,
                fields: [FormField(name: "name", label: text, value: text, error: text, hint: text)], footerLink: ("/login", text)),
            HomePage(
                household: text, stock: [.init(id: 1, name: text, iconURL: "/static/icons/folders/box.svg", count: text)], shopping: [], useSoon: text,
                hasUseSoon: true, clockIcon: "/static/icons/ui/clock.svg",
                calendarIcon: "/static/icons/ui/calendar.svg"),
        ]
        for page in pages {
            let (html, _) = TemplateTests.rendered(page, renderer, t, member: member)
            #expect(!hasUnescapedCluster(html), "\(type(of: page)) lets \(text) through")
            #expect(!holds(html, "<script>") && !holds(html, "<b\u{301}>"))
            #expect(holds(html, HTMLEscaping.escape(text)))
        }
    }

    @Test(arguments: hostileTexts)
    func theCompiledListPageEscapesEverywhere(text: String) async throws {
        let renderer = Renderer()
        let t = renderer.localizations.fallback
        let member = SignedIn(
            sessionId: 1, memberId: 1, memberName: text, login: "aki", role: .owner, language: nil,
            household: HouseholdScope(1), householdName: text, timeZone: "UTC", csrfToken: "token")
        let window = DueWindow(household: Household(id: 1, draft: .init(name: "Home", timeZone: "UTC")), now: Date(timeIntervalSince1970: 1_795_000_000))
        var item = Item(id: 1, draft: Item.Draft(householdId: 1, folderId: 1, name: text, due: window.today, status: .opened))
        item.note = text
        let choices = [Choice(value: text, label: text, selected: true)]
        let page = ItemListPage(
            folderId: 1, name: text, isStock: true, total: text, rows: [ItemRowView(item, window: window, t: t, urls: .plain, folder: text)],
            shared: RowContext(canWrite: true, isStock: true, hasShoppingLists: true, t: t),
            rowNotice: RowNotice(at: 1, text: text, undoIds: text), query: text, kinds: choices, statuses: choices,
            activeFilters: [text], isFiltered: true, pager: Pager(pageLabel: text, previous: text, next: text), here: text,
            moveTargets: choices, stockTargets: choices, shoppingCount: 1, notice: text, undoIds: text)
        let html = renderer.html(page, locale: t, member: member, csrfToken: "token")
        #expect(!hasUnescapedCluster(html))
        #expect(!holds(html, "<script>") && !holds(html, "<b\u{301}>"))
        #expect(holds(html, HTMLEscaping.escape(text)))
    }

    @Test(arguments: hostileTexts)
    func rowsAloneEscapeTheSameWay(text: String) {
        let t = Catalog(code: "en", texts: [:])
        let household = Household(id: 1, draft: .init(name: "Home", timeZone: "UTC"))
        let window = DueWindow(household: household, now: Date(timeIntervalSince1970: 1_795_000_000))
        var item = Item(id: 1, draft: Item.Draft(householdId: 1, folderId: 1, name: text, due: window.today, status: .opened))
        item.note = text
        let rows = [ItemRowView(item, window: window, t: t, urls: .plain, folder: text)]
        let shared = RowContext(canWrite: true, isStock: true, hasShoppingLists: true, t: t)
        // The rows as a script gets them after a quick action (`RowFragment`), notice included.
        let view = ItemRowsView(rows, shared: shared, here: "/folders/1?q=" + text, notice: RowNotice(at: 1, text: text, undoIds: text), t: shared.t)
        let html = String(decoding: view.bytes, as: UTF8.self)
        #expect(!hasUnescapedCluster(html))
        #expect(holds(html, HTMLEscaping.escape(text)))
    }
}
