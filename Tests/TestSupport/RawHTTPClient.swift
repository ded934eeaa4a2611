import Foundation

/// A minimal HTTP/1.1 client over one TCP socket, so tests control exactly what is sent
/// (paths with `..`, several requests on one connection) and see exactly what comes back.
public final class RawHTTPClient {
    public struct Reply: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    private let socketDescriptor: Int32
    private var buffer: [UInt8] = []

    /// `source`: the local address to connect from (any of 127.0.0.0/8 works on Linux), so a test
    /// can be several clients.
    public init(port: UInt16, source: String? = nil) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A give-up for a broken test, not a bound on speed: a loaded machine may answer late.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(socketDescriptor) }

    public func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Sends one request and reads its reply.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        send(Array(head.utf8) + body)
        return try readReply(bodyExpected: method != "HEAD")
    }

    public func readReply(bodyExpected: Bool = true) throws -> Reply {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw POSIXError(.EPROTO) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        if bodyExpected, status != 304, status != 204, let length = headers["content-length"].flatMap(Int.init) {
            try fill(length)
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return Reply(status: status, headers: headers, body: body)
    }

    /// The next chunk of a chunked body (after `readReply` read the head); empty for the last one.
    public func readChunk() throws -> [UInt8] {
        let lineEnd = try readUntil(Array("\r\n".utf8))
        let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(sizeText, radix: 16) else { throw POSIXError(.EPROTO) }
        buffer.removeFirst(lineEnd + 2)
        try fill(size + 2)
        let chunk = Array(buffer[..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    /// True when the server has closed the connection (end of file or reset), not when it is
    /// still open and silent (the read times out).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let n = recv(socketDescriptor, &byte, 1, 0)
        return n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE))
    }

    /// Whether the server has closed the connection, without waiting (bytes it sent before
    /// closing are not counted as closed).
    public func isClosedNow() -> Bool {
        var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(socketDescriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE))
    }

    private func readMore() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(socketDescriptor, &chunk, chunk.count, 0)
        guard n > 0 else { throw POSIXError(.ECONNRESET) }
        buffer.append(contentsOf: chunk[..<n])
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if buffer.count >= marker.count {
                for index in 0...(buffer.count - marker.count) where buffer[index..<index + marker.count].elementsEqual(marker) {
                    return index
                }
            }
            try readMore()
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count { try readMore() }
    }
}
