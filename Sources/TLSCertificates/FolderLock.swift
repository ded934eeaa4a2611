import Foundation

/// One writer at a time in the certificate folder, across threads and processes (the server's
/// renewal thread and `zaiko tls rotate` run at once): an exclusive flock on `.lock`.
enum FolderLock {
    static func holding<T>(_ folder: URL, _ body: () throws -> T) throws -> T {
        let file = folder.appendingPathComponent(".lock")
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFile.cannotWrite(file) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AtomicFile.cannotWrite(file) }
        }
        return try body()
    }
}
