import Foundation

/// The machine's IPv4 addresses other devices on the home network can reach.
enum NetworkAddresses {
    static func lan() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                (entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK)) == 0, (entry.pointee.ifa_flags & UInt32(IFF_UP)) != 0
            else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var inAddress = v4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &inAddress, &buffer, socklen_t(buffer.count))
            }
            addresses.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return addresses
    }

    /// Every address of every interface, IPv4 and IPv6, loopback included (IPv6 without a zone).
    static func all() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var inAddress = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &inAddress, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var inAddress = v6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &inAddress, &buffer, socklen_t(buffer.count))
                }
            default:
                continue
            }
            addresses.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return addresses
    }

    /// The machine's host name (as `hostname` prints it), and its `.local` name on the home network.
    static func hostNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard !name.isEmpty else { return [] }
        let short = String(name.split(separator: ".")[0])
        return Array(Set([name, short, short + ".local"]))
    }
}
