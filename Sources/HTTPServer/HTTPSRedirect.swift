import Foundation

/// The plain-HTTP listener of `--https-only`: every request is sent to the same path and query on
/// the HTTPS port, except the paths in `exempt`, which the application answers as usual.
/// 307 (temporary, method kept): turning `--https-only` off again takes effect at once, where
/// browsers would remember a permanent redirect. Answered at header time: no body is read.
public struct HTTPSRedirect: Responder {
    let application: any Responder
    let httpsPort: UInt16
    let exempt: Set<String>

    public init(to httpsPort: UInt16, exempt: Set<String>, application: any Responder) {
        self.application = application
        self.httpsPort = httpsPort
        self.exempt = exempt
    }

    public func admit(_ head: Request) -> Admission {
        exempt.contains(head.path) ? application.admit(head) : .answer(redirect(head))
    }

    public func respond(to request: Request) -> Response {
        exempt.contains(request.path) ? application.respond(to: request) : redirect(request)
    }

    public func respond(toRefused request: Request, status: Int) -> Response {
        application.respond(toRefused: request, status: status)
    }

    /// `https://<the host the client asked for>:<port><path>?<query>`; 400 without a usable Host.
    func redirect(_ request: Request) -> Response {
        guard let host = Self.hostName(request.headers["host"]) else {
            return Response(status: 400, contentType: "text/plain; charset=utf-8", text: "This server answers over HTTPS only; the request named no host.\n")
        }
        let authority = httpsPort == 443 ? host : "\(host):\(httpsPort)"
        let path = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/"
        let query = request.query.isEmpty ? "" : "?" + request.query.pairs.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
        var response = Response(status: 307, contentType: "text/plain; charset=utf-8", text: "Zaiko is served over HTTPS.\n")
        response.setHeader("Location", "https://\(authority)\(path)\(query)")
        return response
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }

    /// The Host header without its port; nil when absent or holding anything a host name or an
    /// IP address cannot ([::1] keeps its brackets).
    static func hostName(_ header: String?) -> String? {
        guard let header, !header.isEmpty else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard header.allSatisfy(allowed.contains) else { return nil }
        if header.hasPrefix("[") {
            guard let end = header.firstIndex(of: "]") else { return nil }
            return String(header[...end])
        }
        return String(header.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }
}
