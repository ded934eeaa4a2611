import Foundation

/// Whole-file writes a reader never sees half done: a temporary file beside the target, flushed
/// to disk, renamed over it, and the folder flushed so the rename survives a power cut.
enum AtomicFile {
    static func write(_ data: Data, to url: URL, mode: mode_t) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw cannotWrite(url) }
        var written = 0
        let complete = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 { if errno == EINTR { continue } else { return false } }
                written += result
            }
            // The umask may have taken bits away from `mode`; keys must end up exactly 0600.
            return fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        }
        let error = errno
        close(descriptor)
        guard complete, rename(temporary.path, url.path) == 0 else {
            let renameError = errno
            unlink(temporary.path)
            throw cannotWrite(url, errno: complete ? renameError : error)
        }
        syncFolder(folder)
    }

    static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func cannotWrite(_ url: URL, errno code: Int32 = errno) -> CertificateError {
        CertificateError(
            "Cannot write \(url.path) (\(String(cString: strerror(code)))); make \(url.deletingLastPathComponent().path) writable by the account that runs Zaiko."
        )
    }
}
