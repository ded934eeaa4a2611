import Foundation
import HTTPServer
import Inventory
import Logging

/// Where the app finds its templates and public files.
public struct Resources: Sendable {
    public let templates: URL
    public let publicFiles: URL

    public init(root: URL) {
        templates = root.appendingPathComponent("Templates")
        publicFiles = root.appendingPathComponent("Public")
    }

    /// A root that holds both `Templates/` and `Public/`.
    public var isComplete: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: templates.path, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.fileExists(atPath: publicFiles.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// What a handler gets: the request and the reader's language.
public struct RequestContext: Sendable {
    public let request: Request
    public let locale: Catalog
    public func parameter(_ name: String) -> String? { request.pathParameters[name] }
}

public typealias Handler = @Sendable (RequestContext) throws -> Response

/// The application: routes every request, renders pages, logs one line per request.
public final class App: Responder {
    public let database: AppDatabase
    public let renderer: Renderer
    let staticFiles: StaticFiles
    public let router: Router<Handler>
    let logger: Logger

    public init(database: AppDatabase, resources: Resources, logger: Logger) async throws {
        self.database = database
        self.logger = logger
        let renderer = try await Renderer(templates: resources.templates)
        self.renderer = renderer
        self.staticFiles = try StaticFiles(root: resources.publicFiles)
        var router = Router<Handler>()
        SystemController(database: database, renderer: renderer, staticFiles: staticFiles).register(in: &router)
        self.router = router
    }

    public func respond(to request: Request) -> Response {
        let locale = renderer.localizations.negotiate(request.headers["accept-language"])
        var response: Response
        switch router.match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            var routed = request
            routed.pathParameters = parameters
            do {
                response = try handler(RequestContext(request: routed, locale: locale))
            } catch let error as InventoryError where error == .notFound {
                response = renderer.errorResponse(404, locale: locale)
            } catch {
                logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.path)", "error": "\(error)"])
                response = renderer.errorResponse(500, locale: locale)
            }
        case .methodNotAllowed(let allowed):
            response = renderer.errorResponse(405, locale: locale)
            response.setHeader("Allow", allowed.joined(separator: ", "))
        case .notFound:
            response = renderer.errorResponse(404, locale: locale)
        }
        return finish(response, for: request)
    }

    public func respond(toRefused request: Request, status: Int) -> Response {
        let locale = renderer.localizations.negotiate(request.headers["accept-language"])
        return finish(renderer.errorResponse(status, locale: locale), for: request)
    }

    private func finish(_ response: Response, for request: Request) -> Response {
        var response = response
        SecurityHeaders.apply(to: &response)
        let elapsed = ContinuousClock.now - request.startedAt
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        logger.info("\(request.method) \(request.path) \(response.status) \(Double(micros) / 1000)ms")
        return response
    }
}
