import Foundation
import HTTPServer
import Inventory
import Mustache

/// A page's view model: plain, already-formatted values, exposed by name without reflection.
public protocol PageView: MustacheParent, Sendable {
    /// The template that renders it, relative to `Templates/` without `.mustache`.
    static var template: String { get }
    /// The page title in the reader's language.
    func title(_ t: Catalog) -> String
    /// Trusted HTML built in Swift (see `HTML`), placed where the template says `{{slot_NAME}}`.
    var slots: [String: String] { get }
}

extension PageView {
    public var slots: [String: String] { [:] }
}

/// Renders templates from `Templates/`, loaded once at start.
public struct Renderer: Sendable {
    let library: MustacheLibrary
    public let localizations: Localizations

    public init(templates: URL) async throws {
        library = try TemplateLoader.library(directory: templates)
        localizations = try Localizations(directory: templates.appendingPathComponent("locales"))
    }

    public func has(_ template: String) -> Bool { library.getTemplate(named: template) != nil }

    /// The page as HTML text, inside the layout.
    public func html(_ page: some PageView, locale: Catalog, member: SignedIn? = nil, csrfToken: String = "") -> String {
        let context = LayoutContext(page: page, locale: locale, title: page.title(locale), member: member.map(MemberChrome.init), csrf: csrfToken)
        guard var html = library.render(context, withTemplate: type(of: page).template) else {
            preconditionFailure("template \(type(of: page).template) is missing")
        }
        for (name, markup) in page.slots {
            html = HTML.splice(html, marker: HTML.slotMarker + name, with: markup)
        }
        return html
    }

    public func response(_ page: some PageView, locale: Catalog, status: Int = 200) -> Response {
        Response(status: status, contentType: "text/html; charset=utf-8", text: html(page, locale: locale))
    }

    /// The page for this request: the reader's language, their name in the header, the form token.
    public func response(_ page: some PageView, _ context: RequestContext, status: Int = 200) -> Response {
        Response(
            status: status, contentType: "text/html; charset=utf-8",
            text: html(page, locale: context.locale, member: context.member, csrfToken: context.csrfToken))
    }
}

/// What every page's layout can read, in front of the page's own values.
struct LayoutContext: MustacheParent {
    let page: any PageView
    let locale: Catalog
    let title: String
    let member: MemberChrome?
    let csrf: String

    func child(named name: String) -> Any? {
        switch name {
        case "t": return locale
        case "lang": return locale.code
        case "pageTitle": return title
        case "me": return member
        case "csrf": return csrf
        default:
            if name.hasPrefix("slot_") { return HTML.slotMarker + name.dropFirst(5) }
            return page.child(named: name)
        }
    }
}

/// The signed-in member as the header and the pages see them.
struct MemberChrome: MustacheParent {
    let name: String
    let household: String
    let canWrite: Bool
    let isOwner: Bool

    init(_ member: SignedIn) {
        name = member.memberName
        household = member.householdName
        canWrite = member.role.canWrite
        isOwner = member.role == .owner
    }

    func child(named key: String) -> Any? {
        switch key {
        case "name": return name
        case "household": return household
        // nil rather than false is not needed: Bool false is falsy in a section.
        case "canWrite": return canWrite
        case "isOwner": return isOwner
        default: return nil
        }
    }
}
