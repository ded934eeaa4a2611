import Foundation

/// What the server sends back. A file body is sent from its descriptor, never read into memory.
public struct Response: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// An open descriptor the server closes once sent.
        case file(descriptor: Int32, size: UInt64)
        /// Bytes kept in memory for many responses, sent without a copy.
        case shared(SharedBytes)
        /// Bytes sent over time by whoever holds the stream (Server-Sent Events), holding no thread.
        case stream(ResponseStream)
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
        headers.first { Self.sameName($0.name, name) }?.value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { Self.sameName($0.name, name) }
        headers.append((name, value))
    }

    /// Header names are ASCII tokens: compared byte by byte, ignoring ASCII case (no Foundation).
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { x, y in x == y || (x ^ y == 0x20 && (0x61...0x7a).contains(x | 0x20)) }
    }
}
