import HTTPServer

/// What a log line may say about a request. Only the matched route pattern stands for the path
/// (a path may carry a secret: invitation, reset and feed links), and every field the client
/// chose is bounded, so nothing a client sends reaches the log verbatim.
enum RequestLog {
    /// The route pattern, or for a path no route has, only its length.
    static func route(_ request: Request) -> String {
        request.routePattern ?? "(unmatched, \(request.path.utf8.count) bytes)"
    }

    /// The method when it is a short token (GET, POST, …), else only its length.
    static func method(_ method: String) -> String {
        let isToken =
            method.utf8.count <= 16 && !method.isEmpty
            && method.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "-" || $0 == "_") }
        return isToken ? method : "(method, \(method.utf8.count) bytes)"
    }

    /// One line for the request's answer: method, route, status, time.
    static func line(_ request: Request, status: Int, milliseconds: Double) -> String {
        "\(method(request.method)) \(route(request)) \(status) \(milliseconds)ms"
    }
}
