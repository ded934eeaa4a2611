import Foundation

/// Which network addresses Zaiko may send requests to. By default only public ones: a request
/// typed by an owner (a webhook, an ntfy server, a look-up service) must not reach the server's
/// own machine or its local network, unless the operator allows it (`--allow-private-outbound`,
/// for an ntfy server on the LAN).
public struct AddressPolicy: Sendable, Equatable {
    public let allowsPrivate: Bool

    public init(allowsPrivate: Bool) { self.allowsPrivate = allowsPrivate }

    public static let publicOnly = AddressPolicy(allowsPrivate: false)
    public static let anywhere = AddressPolicy(allowsPrivate: true)

    public func permits(_ address: IPAddress) -> Bool { allowsPrivate || address.isPublic }
}

/// A resolved IPv4 or IPv6 address, as bytes.
public enum IPAddress: Sendable, Equatable, CustomStringConvertible {
    case v4(UInt8, UInt8, UInt8, UInt8)
    case v6([UInt8])

    /// A numeric address as text ("10.0.0.1", "::1", "[::1]"), or nil for a name.
    public init?(_ text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = Self(v4)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = Self(v6)
            return
        }
        return nil
    }

    init(_ address: in_addr) {
        let bytes = withUnsafeBytes(of: address.s_addr) { Array($0) }
        self = .v4(bytes[0], bytes[1], bytes[2], bytes[3])
    }

    init(_ address: in6_addr) {
        self = .v6(withUnsafeBytes(of: address) { Array($0) })
    }

    public var description: String {
        switch self {
        case .v4(let a, let b, let c, let d): return "\(a).\(b).\(c).\(d)"
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            return String(cString: buffer)
        }
    }

    /// The form that goes in a URL's host: IPv6 in brackets.
    public var urlHost: String {
        if case .v6 = self { return "[\(description)]" }
        return description
    }

    /// Reachable on the public internet: not loopback, private, shared (CGNAT), link-local,
    /// multicast, reserved or unspecified, also when written as an IPv6 form of such an IPv4 address.
    public var isPublic: Bool {
        switch self {
        case .v4(let a, let b, let c, _):
            switch a {
            case 0, 10, 127: return false // "this network", private, loopback
            case 100 where (64...127).contains(b): return false // shared address space (CGNAT)
            case 169 where b == 254: return false // link-local
            case 172 where (16...31).contains(b): return false
            case 192 where b == 168: return false
            case 192 where b == 0 && (c == 0 || c == 2): return false // IETF protocol assignments, documentation
            case 198 where b == 18 || b == 19: return false // benchmarking
            case 224...255: return false // multicast, reserved, broadcast
            default: return true
            }
        case .v6(let bytes):
            let prefix12 = bytes[0..<12]
            // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): judge the IPv4 address.
            if prefix12 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][...]
                || (prefix12.allSatisfy { $0 == 0 } && bytes[12..<16] != [0, 0, 0, 0][...] && bytes[12..<16] != [0, 0, 0, 1][...])
                || prefix12 == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0][...]
            {
                return IPAddress.v4(bytes[12], bytes[13], bytes[14], bytes[15]).isPublic
            }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return false } // :: and ::1
            if bytes[0] & 0xfe == 0xfc { return false } // unique local fc00::/7
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return false } // link-local fe80::/10
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0xc0 { return false } // old site-local fec0::/10
            if bytes[0] == 0xff { return false } // multicast
            if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0d && bytes[3] == 0xb8 { return false } // documentation
            // 6to4 (2002:a.b.c.d::) carries an IPv4 address too.
            if bytes[0] == 0x20 && bytes[1] == 0x02 { return IPAddress.v4(bytes[2], bytes[3], bytes[4], bytes[5]).isPublic }
            return true
        }
    }
}

/// Every address a host name resolves to (the system resolver, as a connection would use it).
public protocol HostResolving: Sendable {
    func addresses(of host: String, port: Int) async throws(OutboundError) -> [IPAddress]
}

/// getaddrinfo on a thread of its own: the lookup blocks, and must not hold a cooperative thread.
public struct SystemResolver: HostResolving {
    public init() {}

    public func addresses(of host: String, port: Int) async throws(OutboundError) -> [IPAddress] {
        let result: Result<[IPAddress], OutboundError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Self.lookUp(host, port: port)) }
        }
        return try result.get()
    }

    static func lookUp(_ host: String, port: Int) -> Result<[IPAddress], OutboundError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else { return .failure(.unreachable("no address for \(host)")) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    addresses.append(address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { IPAddress($0.pointee.sin_addr) })
                case AF_INET6:
                    addresses.append(address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { IPAddress($0.pointee.sin6_addr) })
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(.unreachable("no address for \(host)")) }
        return .success(addresses)
    }
}
