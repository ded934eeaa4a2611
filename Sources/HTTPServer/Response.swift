import Foundation

/// What the server sends back. A file body is sent from its descriptor, never read into memory.
public struct Response: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// An open descriptor the server closes once sent.
        case file(descriptor: Int32, size: UInt64)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int = 200, contentType: String, text: String) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// A 303 "See Other", the answer to every successful form POST.
    public static func redirect(to location: String, status: Int = 303) -> Response {
        Response(status: status, headers: [("Location", location)])
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }
}
