import Foundation
import Gzip
import Synchronization

/// A public file kept in memory with its validators and its content's hash made once, so answering
/// it costs no system call and no formatting. Checked against the disk at most once a second: an
/// edited file is served (and named by its new hash) within a second, a removed or grown-too-large
/// one falls back to the disk path.
final class PreloadedFile: Sendable {
    /// Larger files are sent from their descriptor instead.
    static let largestSize = 1 << 20

    struct Snapshot: Sendable {
        /// The file as it is, and gzipped when it is text that compresses (compressed once, here).
        let identity: Representation
        let gzip: Representation?
        /// The content's hash (`ContentHash`), which versioned addresses carry (`?v=`).
        let version: String
        let modified: Int
        /// What the file was when read: a different stat means read it again.
        let size: Int
        let modifiedNanoseconds: Int
    }

    /// One encoding of the file, with its own validator (a gzipped body is another representation).
    struct Representation: Sendable {
        let body: SharedBytes
        let etag: String
        /// The headers of a 200 and of a 304 but Cache-Control, which depends on the address asked for.
        let okHeaders: [(name: String, value: String)]
        let notModifiedHeaders: [(name: String, value: String)]
    }

    /// The real path, inside the public folder.
    let path: String
    let contentType: String
    private let state: Mutex<(snapshot: Snapshot?, checkedAt: Int)>

    /// Nil when the file cannot be read or is too large.
    init?(path: String, contentType: String) {
        self.path = path
        self.contentType = contentType
        var info = stat()
        guard stat(path, &info) == 0, let snapshot = Self.read(path, info, contentType: contentType) else { return nil }
        state = Mutex((snapshot, time(nil)))
    }

    /// The file as it is now (re-checked once a second), or nil when it is gone or too large.
    func current() -> Snapshot? {
        let now = time(nil)
        return state.withLock { state in
            if state.checkedAt != now {
                state.checkedAt = now
                state.snapshot = refreshed(state.snapshot)
            }
            return state.snapshot
        }
    }

    /// The response to `request`: gzipped when it accepts gzip and the file has a gzipped form; a
    /// 304 when its validators match that form, else the bytes from memory. `cacheControl` decides
    /// from the version the file has now (an address naming it may be kept for good).
    func response(to request: Request, cacheControl: (_ version: String) -> String) -> Response? {
        guard let snapshot = current() else { return nil }
        let chosen = snapshot.gzip.flatMap { ContentCoding.acceptsGzip(request.headers["accept-encoding"]) ? $0 : nil } ?? snapshot.identity
        let caching = ("Cache-Control", cacheControl(snapshot.version))
        if StaticFiles.notModified(request, etag: chosen.etag, modified: snapshot.modified) {
            return Response(status: 304, headers: chosen.notModifiedHeaders + [caching])
        }
        return Response(status: 200, headers: chosen.okHeaders + [caching], body: .shared(chosen.body))
    }

    private func refreshed(_ snapshot: Snapshot?) -> Snapshot? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if let snapshot, snapshot.size == Int(info.st_size), snapshot.modified == Int(info.st_mtim.tv_sec),
            snapshot.modifiedNanoseconds == Int(info.st_mtim.tv_nsec)
        {
            return snapshot
        }
        return Self.read(path, info, contentType: contentType)
    }

    private static func read(_ path: String, _ info: stat, contentType: String) -> Snapshot? {
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= largestSize,
            let data = FileManager.default.contents(atPath: path), data.count == Int(info.st_size)
        else { return nil }
        let modified = Int(info.st_mtim.tv_sec)
        let etag = StaticFiles.etag(size: Int(info.st_size), modified: modified, nanoseconds: Int(info.st_mtim.tv_nsec))
        let lastModified = ("Last-Modified", HTTPDate.string(fromUnixSeconds: modified))
        let bytes = [UInt8](data)
        let compressed = ContentCoding.isCompressible(contentType) ? Gzip.compress(bytes) : nil
        // Sent only when it saves something; then both forms say that the answer depends on it.
        let gzipped = compressed.flatMap { $0.count < bytes.count ? $0 : nil }
        let vary: [(name: String, value: String)] = gzipped == nil ? [] : [("Vary", "Accept-Encoding")]
        func representation(_ body: [UInt8], etag: String, encoding: [(name: String, value: String)]) -> Representation {
            let validators = [("ETag", etag), lastModified] + vary
            return Representation(
                body: SharedBytes(body), etag: etag, okHeaders: [("Content-Type", contentType)] + encoding + validators,
                notModifiedHeaders: validators)
        }
        return Snapshot(
            identity: representation(bytes, etag: etag, encoding: []),
            gzip: gzipped.map { representation($0, etag: ContentCoding.gzipETag(etag), encoding: [("Content-Encoding", "gzip")]) },
            version: ContentHash.of(bytes), modified: modified, size: Int(info.st_size), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
