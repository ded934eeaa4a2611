import HTTPServer

/// The error page for a status, in the reader's language. Never shows internals.
struct ErrorPage: PageView {
    static let template = "error"
    let status: Int
    let heading: String
    let message: String

    init(status: Int, heading: String, message: String) {
        self.status = status
        self.heading = heading
        self.message = message
    }

    init(status: Int, locale: Catalog) {
        let known = [400, 403, 404, 405, 413, 422, 500].contains(status) ? status : (status >= 500 ? 500 : 400)
        self.status = status
        heading = locale["error_\(known)_title"]
        message = locale["error_\(known)_message"]
    }

    func title(_ t: Catalog) -> String { heading }

    func child(named name: String) -> Any? {
        switch name {
        case "status": return status
        case "heading": return heading
        case "message": return message
        default: return nil
        }
    }
}

extension Renderer {
    func errorResponse(_ status: Int, locale: Catalog) -> Response {
        response(ErrorPage(status: status, locale: locale), locale: locale, status: status)
    }
}
