import APIContract
import Foundation
import HTTPServer
import Inventory

/// The API's contract: the OpenAPI document as JSON (`/api/v1/openapi.json`), and the page that
/// presents it to a person (`/api`): how to start, every operation, every kind of error.
struct APIDocumentController {
    let renderer: Renderer
    let operations: [APIOperation]

    init(renderer: Renderer) {
        self.renderer = renderer
        operations = APIOperation.all
    }

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.API.document, .asset, use: document)
        router.get(Route.API.page, .open, use: page)
    }

    func document(_ context: RequestContext) throws -> Response {
        var response = Response(status: 200, contentType: "application/json", text: openAPIDocument)
        // The same for everyone, and public: another tool may keep it for a while.
        response.setHeader("Cache-Control", "public, max-age=300")
        return response
    }

    /// What the page puts where a problem's sentence names a value of the request.
    static let examples = ["seconds": "N", "methods": "GET, POST", "reason": "…"]

    func page(_ context: RequestContext) throws -> Response {
        let t = context.locale
        return renderer.response(
            APIPage(
                documentPath: Route.API.document, mcpPath: MCPEndpoint.path,
                operations: operations.map {
                    APIPage.Operation(
                        operationId: $0.id, method: $0.method, path: Route.API.v1 + $0.path, summary: t[.apiOperation, $0.id],
                        scope: $0.scope == "read" ? t[.apiScopeRead] : t[.apiScopeWrite])
                },
                problems: APIProblem.Kind.allCases.map {
                    APIPage.Problem(
                        type: $0.rawValue, status: $0.status, title: t[.apiProblem, $0.rawValue],
                        detail: t.format(named: TextFamily.apiProblemDetail.name($0.rawValue), Self.examples))
                }), context)
    }
}

/// One operation of the document: what the page lists and the tests check against the routes.
struct APIOperation: Sendable, Equatable {
    let id: String
    let method: String
    /// Under `/api/v1`, with `{name}` parameters.
    let path: String
    let summary: String
    /// `read`, or `write` (the token needs the scope of the item's kind of list).
    let scope: String

    /// The document's operations, in its order of paths and methods.
    static let all: [APIOperation] = {
        guard let document = try? JSONSerialization.jsonObject(with: Data(openAPIDocument.utf8)) as? [String: Any],
            let paths = document["paths"] as? [String: Any]
        else { return [] }
        let methods = ["get", "put", "post", "patch", "delete"]
        return paths.keys.sorted().flatMap { path -> [APIOperation] in
            guard let item = paths[path] as? [String: Any] else { return [] }
            return methods.compactMap { method in
                guard let operation = item[method] as? [String: Any], let id = operation["operationId"] as? String else { return nil }
                return APIOperation(
                    id: id, method: method.uppercased(), path: path, summary: operation["summary"] as? String ?? "",
                    scope: operation["x-zaiko-scope"] as? String ?? "read")
            }
        }
    }()
}

struct APIPage: CompiledPage {
    struct Operation: Sendable {
        let operationId: String
        let method: String
        let path: String
        let summary: String
        let scope: String
    }

    struct Problem: Sendable {
        let type: String
        let status: Int
        let title: String
        let detail: String
    }

    let documentPath: String
    let mcpPath: String
    let operations: [Operation]
    let problems: [Problem]

    func title(_ t: Catalog) -> String { t[.apiHeading] }
}
