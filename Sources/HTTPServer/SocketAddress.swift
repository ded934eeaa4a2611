import Foundation

/// An IPv4 or IPv6 listening address, checked before libmicrohttpd gets it so that a port in
/// use or a wrong host turns into a clear sentence.
struct SocketAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        if host.contains(":") {
            isIPv6 = true
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { throw ServerError.invalidHost(host) }
        } else {
            isIPv6 = false
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &v4.sin_addr) == 1 else { throw ServerError.invalidHost(host) }
        }
    }

    var port: UInt16 { isIPv6 ? UInt16(bigEndian: v6.sin6_port) : UInt16(bigEndian: v4.sin_port) }

    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        if isIPv6 {
            return withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        return withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    /// Binds a throw-away socket to learn whether listening can work.
    mutating func checkAvailable(host: String) throws {
        let probe = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw ServerError.cannotListen(host: host, port: port, reason: String(cString: strerror(errno))) }
        defer { close(probe) }
        var one: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let result = withSockaddr { bind(probe, $0, length) }
        guard result != 0 else { return }
        switch errno {
        case EADDRINUSE: throw ServerError.addressInUse(host: host, port: port)
        case EACCES: throw ServerError.permissionDenied(port: port)
        case EADDRNOTAVAIL: throw ServerError.hostNotOnThisMachine(host)
        default: throw ServerError.cannotListen(host: host, port: port, reason: String(cString: strerror(errno)))
        }
    }
}
