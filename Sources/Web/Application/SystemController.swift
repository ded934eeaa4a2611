import HTTPServer
import Inventory
import Logging

/// Health check and static files.
struct SystemController {
    let database: AppDatabase
    let renderer: Renderer
    let staticFiles: StaticFiles
    let logger: Logger
    /// Where the static files are served.
    static let staticPrefix = "/static/"
    static let healthPath = "/healthz"

    func register(in router: inout Router<Endpoint>) {
        router.get(Self.healthPath, .asset, use: health)
        router.get(Self.staticPrefix + "{path...}", .asset, use: staticFile)
    }

    /// 200 only while the open database file is the one on disk and a write can commit.
    func health(_ context: RequestContext) throws -> Response {
        guard let problem = database.healthProblem() else {
            return Response(status: 200, contentType: "text/plain; charset=utf-8", text: "ok")
        }
        logger.error("health check failed: \(problem)")
        return Response(status: 503, contentType: "text/plain; charset=utf-8", text: "database unavailable")
    }

    func staticFile(_ context: RequestContext) throws -> Response {
        staticFiles.response(for: context.parameter("path") ?? "", request: context.request) ?? renderer.errorResponse(404, locale: context.locale)
    }
}
