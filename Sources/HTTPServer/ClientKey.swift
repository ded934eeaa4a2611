import Foundation

/// Who a connection belongs to, for the per-client connection limit: an IPv4 address, or the /64
/// network of an IPv6 address (one household device gets a whole /64 and may use any address in
/// it, so counting exact IPv6 addresses would let one client take every slot).
public struct ClientKey: Hashable, Sendable, CustomStringConvertible {
    enum Family: UInt8, Sendable { case ipv4, ipv6 }
    let family: Family
    /// The IPv4 address, or the first 64 bits of the IPv6 address.
    let bits: UInt64

    /// From a socket address; nil for families that are neither IPv4 nor IPv6.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
            self.init(ipv4: UInt32(bigEndian: v4.sin_addr.s_addr))
        case AF_INET6:
            let v6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
            self.init(ipv6: withUnsafeBytes(of: v6.sin6_addr) { Array($0) })
        default:
            return nil
        }
    }

    /// From an address written as text ("192.168.1.20", "2001:db8::1").
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(ipv6: withUnsafeBytes(of: v6) { Array($0) })
        } else {
            return nil
        }
    }

    /// For a peer whose address libmicrohttpd could not tell: all such share one count.
    static let unknown = ClientKey(ipv4: 0)

    private init(family: Family, bits: UInt64) {
        self.family = family
        self.bits = bits
    }

    private init(ipv4: UInt32) {
        self.init(family: .ipv4, bits: UInt64(ipv4))
    }

    private init(ipv6 bytes: [UInt8]) {
        // An IPv4 client reaching a dual-stack socket arrives as ::ffff:a.b.c.d: count it as IPv4.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            self.init(ipv4: bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
            return
        }
        self.init(family: .ipv6, bits: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
    }

    public var description: String {
        switch family {
        case .ipv4:
            return "\(bits >> 24).\(bits >> 16 & 0xff).\(bits >> 8 & 0xff).\(bits & 0xff)"
        case .ipv6:
            let groups = (0..<4).map { String(bits >> (48 - 16 * UInt64($0)) & 0xffff, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        }
    }
}
