import HTTPServer
import Inventory

/// Health check, static files and the start page.
struct SystemController {
    let database: AppDatabase
    let renderer: Renderer
    let staticFiles: StaticFiles

    func register(in router: inout Router<Handler>) {
        router.add("GET", "/healthz") { [database] _ in
            database.isHealthy()
                ? Response(status: 200, contentType: "text/plain; charset=utf-8", text: "ok")
                : Response(status: 503, contentType: "text/plain; charset=utf-8", text: "database unavailable")
        }
        router.add("GET", "/static/{path...}") { [staticFiles, renderer] context in
            staticFiles.response(for: context.parameter("path") ?? "", request: context.request)
                ?? renderer.errorResponse(404, locale: context.locale)
        }
        router.add("GET", "/") { [renderer] context in
            renderer.response(WelcomePage(), locale: context.locale)
        }
    }
}

/// The start page while the server has no household yet.
struct WelcomePage: PageView {
    static let template = "welcome"
    func title(_ t: Catalog) -> String { t["app_name"] }
    func child(named name: String) -> Any? { nil }
}
