import Foundation
import HTTPServer
import Inventory

/// Why the API refused or failed a request: thrown by its handlers and answered by the transport as
/// RFC 9457 problem details (`application/problem+json`) in the member's language.
struct APIProblem: Error, Sendable {
    /// The kinds of problem; each is documented on /api under its `type` (`/api#not_found`).
    enum Kind: String, Sendable, CaseIterable {
        case unauthorized, throttled
        case forbiddenScope = "forbidden_scope"
        case forbiddenRole = "forbidden_role"
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case invalid, unprocessable
        case versionMismatch = "version_mismatch"
        case keyReused = "key_reused"
        case keyRunning = "key_running"
        case keyDoneWithoutAnswer = "key_done_without_answer"
        case recipeShort = "recipe_short"
        case tooLarge = "too_large"
        case busy
        case server

        var status: Int {
            switch self {
            case .unauthorized: 401
            case .throttled: 429
            case .forbiddenScope, .forbiddenRole: 403
            case .notFound: 404
            case .methodNotAllowed: 405
            case .invalid: 400
            case .unprocessable: 422
            case .versionMismatch: 412
            case .keyReused, .keyRunning, .keyDoneWithoutAnswer, .recipeShort: 409
            case .tooLarge: 413
            case .busy: 503
            case .server: 500
            }
        }
    }

    /// A refused value: which field, of which draft in a batch.
    struct FieldError: Sendable {
        var draft: Int?
        let field: String
        let problem: FieldProblem
    }

    let kind: Kind
    var fields: [FieldError] = []
    /// Values the detail sentence names (`{seconds}`, `{methods}`, `{reason}`).
    var values: [String: String] = [:]
    /// More members of the problem object, each as JSON (412: the version sent and the item as it is now).
    var extra: [String: Data] = [:]
    var headers: [(name: String, value: String)] = []

    init(_ kind: Kind, values: [String: String] = [:]) {
        self.kind = kind
        self.values = values
    }

    /// Values the household refused, a line per field.
    static func unprocessable(_ fields: [FieldError]) -> APIProblem {
        var problem = APIProblem(.unprocessable)
        problem.fields = fields
        return problem
    }

    /// The problem for a domain error, nil when it is none the API words (a failure of the server).
    init?(_ error: any Error) {
        if let problem = error as? APIProblem {
            self = problem
            return
        }
        if let errors = error as? ItemFormErrors {
            self = .unprocessable(
                errors.drafts.sorted { $0.key < $1.key }.flatMap { draft, problems in
                    problems.sorted { $0.key.rawValue < $1.key.rawValue }.map { FieldError(draft: draft, field: $0.key.rawValue, problem: $0.value) }
                })
            return
        }
        guard let error = error as? InventoryError else { return nil }
        switch error {
        case .notFound: self.init(.notFound)
        case .validation(let fields): self = .unprocessable(fields.sorted { $0.key < $1.key }.map { FieldError(field: $0.key, problem: $0.value) })
        default: return nil
        }
    }

    /// The answer, worded by `t`.
    func response(_ t: Catalog) -> Response {
        var object: [String: Any] = [
            "type": Route.API.page + "#" + kind.rawValue,
            "title": t[.apiProblem, kind.rawValue],
            "status": kind.status,
            "detail": t.format(named: TextFamily.apiProblemDetail.name(kind.rawValue), values),
        ]
        if !fields.isEmpty {
            object["errors"] = fields.map { field -> [String: Any] in
                var line: [String: Any] = ["field": field.field, "message": t[problem: field.problem]]
                if let draft = field.draft { line["draft"] = draft }
                return line
            }
        }
        for (name, json) in extra {
            object[name] = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
        }
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: kind.status, headers: [("Content-Type", "application/problem+json")] + headers, body: .bytes(Array(body)))
    }
}
