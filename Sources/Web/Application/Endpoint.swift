import HTTPServer
import Inventory
import Tagged

/// Who may use a route. `App` enforces it before the handler runs, so no handler can forget.
public enum Access: String, Sendable, CaseIterable {
    /// Files and health checks: no session is even looked up.
    case asset
    /// Anyone, signed in or not (login, setup, invitation links).
    case open
    /// Any member of a household, viewers included (reading, their own account).
    case signedIn
    /// Members and owners: changes to the household's things.
    case writer
    /// Owners only: members, invitations, household settings.
    case owner
    /// The API: no cookie is read and no form token checked; the route checks its request's bearer
    /// token itself (`APIRoutes`), and the member it belongs to is held to the same rules.
    case token
}

public typealias Handler = @Sendable (RequestContext) throws -> Response

/// A route's handler and the access it requires.
public struct Endpoint: Sendable {
    public let access: Access
    /// Whether the route takes files: only these may receive a body larger than a form's, and
    /// only from a member the route's access admits (checked before the body is read).
    public var takesUploads = false
    let handler: Handler
}

extension Router where Handler == Endpoint {
    /// `handler` a controller's method by name (`use: show`), or a closure for a small one.
    mutating func get(_ pattern: String, _ access: Access, use handler: @escaping Web.Handler) {
        add("GET", pattern, Endpoint(access: access, handler: handler))
    }

    mutating func post(_ pattern: String, _ access: Access, uploads: Bool = false, use handler: @escaping Web.Handler) {
        add("POST", pattern, Endpoint(access: access, takesUploads: uploads, handler: handler))
    }
}

/// What a handler gets: the request, the reader's language, who they are, their form token.
public struct RequestContext: Sendable {
    public let request: Request
    public let member: SignedIn?
    /// The token forms must carry in `_csrf`.
    public let csrfToken: String
    private let language: Language

    /// The catalog when known up front; for files and health checks only the `Accept-Language`
    /// header, read if the handler needs words (its 404 page): most never do.
    private enum Language: Sendable {
        case known(Catalog)
        case negotiated(Localizations)
    }

    /// The reader's language.
    public var locale: Catalog {
        switch language {
        case .known(let catalog): catalog
        case .negotiated(let localizations): localizations.negotiate(request.headers["accept-language"])
        }
    }

    public init(request: Request, locale: Catalog, member: SignedIn?, csrfToken: String) {
        self.request = request
        self.language = .known(locale)
        self.member = member
        self.csrfToken = csrfToken
    }

    /// No one signed in and no form token, the language negotiated only when asked for.
    init(request: Request, negotiating localizations: Localizations) {
        self.request = request
        self.language = .negotiated(localizations)
        self.member = nil
        self.csrfToken = ""
    }

    public func parameter(_ name: String) -> String? { request.pathParameters[name] }

    /// A numeric id from the path, typed as the id of the record the route is about (`Item.ID`,
    /// `Recipe.ID`, …); anything else is "not found".
    public func id<Record>(_ name: String = "id") throws -> Tagged<Record, Int64> {
        guard let text = parameter(name), let id = Int64(text), id > 0 else { throw InventoryError.notFound }
        return Tagged(rawValue: id)
    }

    /// The signed-in member; routes that need one are only reached with one.
    public var signedIn: SignedIn {
        get throws {
            guard let member else { throw InventoryError.notFound }
            return member
        }
    }

    /// A form value, trimmed of surrounding white space.
    public func field(_ name: String) -> String {
        (request.form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where to go after an action: the `return` field (form or query) when it is a path on this
    /// site, else `fallback`.
    public func returnPath(fallback: String) -> String {
        let requested = request.form["return"] ?? request.query["return"] ?? ""
        let safe = SessionController.safeNext(requested)
        return safe == "/" && requested != "/" ? fallback : safe
    }
}
