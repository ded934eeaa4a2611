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
}
