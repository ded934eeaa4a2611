import HTTPServer
import Inventory

/// Health check and static files.
struct SystemController {
    let database: AppDatabase
    let renderer: Renderer
    let staticFiles: StaticFiles

    func register(in router: inout Router<Endpoint>) {
        router.get("/healthz", .asset) { [database] _ in
            database.isHealthy()
                ? Response(status: 200, contentType: "text/plain; charset=utf-8", text: "ok")
                : Response(status: 503, contentType: "text/plain; charset=utf-8", text: "database unavailable")
        }
        router.get("/static/{path...}", .asset) { [staticFiles, renderer] context in
            staticFiles.response(for: context.parameter("path") ?? "", request: context.request)
                ?? renderer.errorResponse(404, locale: context.locale)
        }
    }
}
