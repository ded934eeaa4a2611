import Foundation

/// The DNS names and IP addresses a server certificate is for, in a form two sets compare equal
/// when they name the same things (names lower-cased, addresses as inet_ntop writes them, sorted).
public struct SubjectNames: Equatable, Sendable {
    public let names: [String]
    public let addresses: [String]

    public init(names: [String], addresses: [String]) throws {
        self.names = Set(names.map { $0.lowercased() }.filter { !$0.isEmpty }).sorted()
        self.addresses = try Set(
            addresses.map { address in
                guard let bytes = Self.bytes(ofAddress: address), let text = Self.text(ofAddress: bytes) else {
                    throw CertificateError("\(address) is not an IP address.")
                }
                return text
            }
        ).sorted()
    }

    /// 4 bytes for IPv4, 16 for IPv6 (brackets allowed), in network order as X.509 stores them.
    static func bytes(ofAddress text: String) -> Data? {
        let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: &v4) { Data($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Data($0) } }
        return nil
    }

    static func text(ofAddress bytes: Data) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
    }
}
