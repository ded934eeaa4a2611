import Foundation

enum PeerAddress {
    /// An IPv4 address as it is; an IPv6 address reduced to its /64 network, since one client can
    /// use any address inside it.
    static func throttleKey(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var parsed = in6_addr()
        guard inet_pton(AF_INET6, address, &parsed) == 1 else { return address }
        let bytes = withUnsafeBytes(of: parsed) { Array($0.prefix(8)) }
        return Crypto.hex(bytes) + "/64"
    }
}
