import Foundation

/// fsync and rename: a backup or a restored folder appears whole under its final name, or not at all.
enum DurableFiles {
    static func sync(_ url: URL, directory: Bool = false) throws {
        let fd = open(url.path, (directory ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno, in: url, "cannot open \(url.path) to sync it") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure(errno, in: url, "cannot sync \(url.path)") }
    }

    static func rename(_ source: URL, to target: URL) throws {
        guard Foundation.rename(source.path, target.path) == 0 else {
            throw failure(errno, in: target, "cannot rename \(source.path) to \(target.path)")
        }
    }

    /// A failed system call on `url` as a typed error when the disk is full or refuses writes.
    static func failure(_ code: Int32, in url: URL, _ what: String) -> BackupError {
        let folder = url.deletingLastPathComponent().path
        switch code {
        case ENOSPC, EDQUOT, EFBIG: return .diskFull(folder)
        case EROFS, EACCES, EPERM: return .notWritable(folder)
        default: return .write("\(what): \(describe(code))")
        }
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A plain sentence's worth of any error: SQLite's message, the system's text for an errno.
    static func describe(_ error: any Error) -> String {
        if let error = error as? BackupError { return error.description }
        if let error = error as? POSIXError { return describe(error.code.rawValue) }
        let text = "\(error)"
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
