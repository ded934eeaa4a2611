import Foundation
import Synchronization

/// The CA certificate file, read again only when it changes on disk (the CA can be rotated while
/// the server runs): each look costs one `stat`, never a read or a parse.
final class CACertificateFile: Sendable {
    let url: URL
    private struct Stamp: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }
    private let cache = Mutex<(stamp: Stamp?, certificate: CACertificate?)>((nil, nil))

    init(url: URL) { self.url = url }

    /// The certificate as the file holds it now; nil when there is none (HTTPS off) or it is unreadable.
    var current: CACertificate? {
        let stamp = Self.stamp(url.path)
        return cache.withLock { cached in
            if let stamp, cached.stamp == stamp { return cached.certificate }
            let certificate = stamp.flatMap { _ in (try? Data(contentsOf: url)).flatMap { CACertificate(pem: Array($0)) } }
            cached = (stamp, certificate)
            return certificate
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
