import Foundation
import HTTPServer
import Synchronization

/// The names and addresses this server answers to. A page on any other name that resolves to the
/// server (DNS rebinding: `evil.example` made to point at 192.168.1.20) is refused, so it cannot
/// drive the setup or sign-in pages from inside the home network, and a form's `Origin` must be
/// one of these names too.
public final class HostAllowlist: Sendable {
    /// The machine's own names and addresses (lower case; IPv6 addresses without brackets):
    /// reached on a port the server listens on.
    let ownNames: Set<String>
    /// Names a reverse proxy serves Zaiko under (`--public-name`): on any port.
    let publicNames: Set<String>
    private let ports = Mutex<Set<UInt16>>([])

    public init(ownNames: [String], publicNames: [String] = []) {
        self.ownNames = Set(ownNames.map(Self.normalized))
        self.publicNames = Set(publicNames.map(Self.normalized))
    }

    /// The ports the server listens on, once they are known (a port 0 is picked when listening).
    public func listening(on ports: [UInt16]) {
        self.ports.withLock { $0 = Set(ports) }
    }

    /// Whether a `Host` header ("name", "name:port", "[::1]:port") names this server.
    public func allows(host header: String) -> Bool {
        guard let (name, port) = Self.split(header) else { return false }
        if publicNames.contains(name) { return true }
        guard ownNames.contains(name) else { return false }
        guard let port else { return true }
        return ports.withLock { $0.isEmpty || $0.contains(port) }
    }

    /// Whether an `Origin` ("http://name:port") is this server.
    public func allows(origin: String) -> Bool {
        for scheme in ["http://", "https://"] where origin.lowercased().hasPrefix(scheme) {
            return allows(host: String(origin.dropFirst(scheme.count)))
        }
        return false
    }

    private static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }

    /// The name (normalized) and port of a host header; nil when it is not one. Runs twice on every
    /// request (admission, then the answer), so it looks at characters with the standard library
    /// alone: Foundation's `contains("/")` and a `split` into an array cost a fifth of a static
    /// file's answer (bench/README.md, "the house's four slower rows looked into").
    private static func split(_ header: String) -> (String, UInt16?)? {
        guard !header.isEmpty, !header.contains(where: { $0 == "/" || $0 == "@" }) else { return nil }
        if header.hasPrefix("[") {
            guard let end = header.firstIndex(of: "]") else { return nil }
            let name = normalized(String(header[...end]))
            let rest = header[header.index(after: end)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        guard let colon = header.firstIndex(of: ":") else { return (normalized(header), nil) }
        let port = header[header.index(after: colon)...]
        // "name:port" has one colon; more is no host header (an IPv6 address goes in brackets).
        guard port.firstIndex(of: ":") == nil, let number = UInt16(port) else { return nil }
        return (normalized(String(header[..<colon])), number)
    }

    /// The answer to a request for another name: 421, the request was sent to the wrong server.
    static func misdirected() -> Response {
        Response(
            status: 421, contentType: "text/plain; charset=utf-8",
            text: "This Zaiko does not answer to that host name. Open it by its own address, or start it with --public-name NAME.\n")
    }
}
