import Foundation
import Synchronization

/// The certificate a TLS listener presents, read again from its files when they change: each
/// handshake looks at the files' identity (inode, size, modification time: two `stat` calls),
/// so a renewed certificate is served from the next handshake on, with no restart and no timer.
/// Files that cannot be read (half written, key and certificate not yet both replaced) leave the
/// previous certificate in use; the next change is tried again.
final class ReloadingCertificate: Sendable {
    let listener: TLSListener
    private let state: Mutex<State>
    /// Told once per failed reload, on a MHD thread: the message is one sentence.
    private let reloadFailed: @Sendable (String) -> Void

    private struct State {
        var current: CertificateKeyPair
        var seen: FilesIdentity?
        /// Replaced pairs, kept alive: see `CertificateKeyPair`.
        var retired: [CertificateKeyPair] = []
    }

    /// Identity of both files as `stat` sees them; nil when either is missing.
    struct FilesIdentity: Equatable {
        let certificate: [Int]
        let key: [Int]

        init?(_ listener: TLSListener) {
            guard let certificate = Self.identity(listener.certificateFile), let key = Self.identity(listener.keyFile) else { return nil }
            self.certificate = certificate
            self.key = key
        }

        private static func identity(_ file: URL) -> [Int]? {
            var info = stat()
            guard stat(file.path, &info) == 0 else { return nil }
            return [
                Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec),
                Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec),
            ]
        }
    }

    /// Reads the files once; throws when they cannot be used, so a bad path fails at start.
    init(_ listener: TLSListener, reloadFailed: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.listener = listener
        self.reloadFailed = reloadFailed
        let seen = FilesIdentity(listener)
        let pair = try CertificateKeyPair(certificateFile: listener.certificateFile, keyFile: listener.keyFile)
        state = Mutex(State(current: pair, seen: seen))
    }

    /// The pair for a new handshake, reloaded first if the files changed since last looked at.
    func current() -> CertificateKeyPair {
        let now = FilesIdentity(listener)
        return state.withLock { state in
            guard let now, now != state.seen else { return state.current }
            state.seen = now
            do {
                let fresh = try CertificateKeyPair(certificateFile: listener.certificateFile, keyFile: listener.keyFile)
                state.retired.append(state.current)
                state.current = fresh
            } catch {
                reloadFailed("\(error); still serving the previous certificate")
            }
            return state.current
        }
    }
}
