import Foundation

/// fsync and rename: a backup or a restored folder appears whole under its final name, or not at all.
enum DurableFiles {
    static func sync(_ url: URL, directory: Bool = false) throws {
        let fd = open(url.path, (directory ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC)
        guard fd >= 0 else { throw BackupError.write("cannot open \(url.path) to sync it: \(describe(errno))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw BackupError.write("cannot sync \(url.path): \(describe(errno))") }
    }

    static func rename(_ source: URL, to target: URL) throws {
        guard Foundation.rename(source.path, target.path) == 0 else {
            throw BackupError.write("cannot rename \(source.path) to \(target.path): \(describe(errno))")
        }
    }

    /// A random name beside `url`, hidden (leading dot), for work in progress.
    static func temporarySibling(of url: URL, _ purpose: String) -> URL {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(purpose)-\(random)")
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
