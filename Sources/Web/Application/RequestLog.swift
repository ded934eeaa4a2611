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
        // ASCII letters, '-' and '_', byte by byte (no Unicode property look-ups per request).
        let isToken =
            method.utf8.count <= 16 && !method.isEmpty
            && method.utf8.allSatisfy { (0x41...0x5a).contains($0 & ~0x20) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        return isToken ? method : "(method, \(method.utf8.count) bytes)"
    }

    /// One line for the request's answer: method, route, status, time ("1.234ms").
    static func line(_ request: Request, status: Int, microseconds: Int64) -> String {
        let fraction = String(microseconds % 1000)
        return
            "\(method(request.method)) \(route(request)) \(status) \(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.utf8.count))\(fraction)ms"
    }
}
