import HTTPServer
import Inventory
import Synchronization
import TemplateRuntime

/// A page whose template is compiled at build time (`{{! compiled: View in PageChrome }}` on
/// the template's first line): the generated `render(in:into:)` writes it straight into bytes.
/// Every page renders this way.
///
/// Adding a page: put the `compiled:` line on its template; make its view model a
/// `CompiledPage` with a stored or computed property for every name the template and its
/// partials read; rows and other repeated parts are sections over typed views (a partial
/// with its own `compiled:` line is its own unit, as `rowList` / `partials/item-rows`); call
/// `renderer.response(page, context)`. `swift build` names every template line whose name
/// the view model lacks.
///
/// Names resolve like Mustache's context stack, at compile time (see `Scope`): the innermost
/// section value with a member of that name, else the next one out, up to the page's view
/// model and then `PageChrome`. Bool, String and number sections push nothing (`{{.}}` is the
/// value itself).
protocol CompiledPage {
    /// The page title in the reader's language.
    func title(_ t: Catalog) -> String
    /// Generated from the template by the CompileTemplates build plugin.
    func render(in outer: PageChrome, into w: inout HTMLWriter)
}

/// What the layout reads around every compiled page, in front of the page's own values.
struct PageChrome {
    let t: TemplateLabels
    let lang: String
    let pageTitle: String
    let me: MemberChrome?
    let csrf: String
    /// The stylesheet, script, manifest and logo, by their versioned addresses.
    let layoutFiles: LayoutFiles
}

extension TemplateLabels {
    /// The labels of `catalog`'s language, English (the fallback) when it has none compiled.
    static func of(_ catalog: Catalog) -> TemplateLabels {
        all.first { $0.code == catalog.code } ?? all.first { $0.code == "en" } ?? all[0]
    }
}

/// How large the last page was, so the next one's buffer is reserved once and never grows.
/// (The buffer itself goes to the response without a copy, so it is not reused.)
enum PageSize {
    private static let last = Atomic<Int>(32 * 1024)

    static func writer() -> HTMLWriter { HTMLWriter(capacity: last.load(ordering: .relaxed)) }

    static func remember(_ writer: HTMLWriter) {
        // A little over the last page: the next one is often a bit longer.
        last.store(min(writer.bytes.count + writer.bytes.count / 8 + 1024, 4 << 20), ordering: .relaxed)
    }
}

extension Renderer {
    /// The compiled page for this request, in the layout, as the response body's bytes.
    func response(_ page: some CompiledPage, _ context: RequestContext, status: Int = 200) -> Response {
        let body = bytes(page, locale: context.locale, member: context.member, csrfToken: context.csrfToken)
        return Response(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(body))
    }

    /// The page in the reader's language, their name in the header, the form token.
    func bytes(_ page: some CompiledPage, locale: Catalog, member: SignedIn? = nil, csrfToken: String = "") -> [UInt8] {
        let chrome = PageChrome(
            t: .of(locale), lang: locale.code, pageTitle: page.title(locale), me: member.map(MemberChrome.init), csrf: csrfToken,
            layoutFiles: LayoutFiles(urls: staticURLs))
        var writer = PageSize.writer()
        page.render(in: chrome, into: &writer)
        PageSize.remember(writer)
        return writer.bytes
    }

    /// The same as text, for tests and logs.
    func html(_ page: some CompiledPage, locale: Catalog, member: SignedIn? = nil, csrfToken: String = "") -> String {
        String(decoding: bytes(page, locale: locale, member: member, csrfToken: csrfToken), as: UTF8.self)
    }
}
