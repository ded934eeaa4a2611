import Foundation

/// Serves files below one folder (`Public/`), with validators for 304 answers.
/// A path that would leave the folder (`..`, a symlink pointing out, a NUL) is refused.
///
/// A page names a file by its version (`css/app.css?v=<ContentHash>`, see `version(of:)`): that
/// address is kept by browsers for a year without asking again, since another content has another
/// address. The plain address (a bookmark, an old page) and one naming another version (a page
/// made before the file was edited) get the current file, revalidated on every use.
///
/// The folder's files (up to `PreloadedFile.largestSize` each) are read into memory when this is
/// made and answered from there; a file added later, or spelled another way (`css//app.css`), is
/// looked up on disk as before.
public struct StaticFiles: Sendable {
    /// The folder, with symlinks resolved.
    public let root: String
    /// For the plain address, or one naming a version the file no longer has.
    public let cacheControl: String
    /// For the address naming the file's current version.
    public static let versionedCacheControl = "public, max-age=31536000, immutable"
    /// By path below the folder, as a request names it (`css/app.css`).
    private let preloaded: [String: PreloadedFile]

    public init(root: URL, cacheControl: String = "public, no-cache") throws {
        guard let resolved = Self.realPath(root.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        self.root = resolved
        self.cacheControl = cacheControl
        var preloaded: [String: PreloadedFile] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: resolved) ?? FileManager.DirectoryEnumerator() {
            // The same checks as a request's path: inside the folder, no hidden segment.
            guard let path = Self.resolve(relative, in: resolved),
                let file = PreloadedFile(path: path, contentType: MediaType.forPath(path))
            else { continue }
            preloaded[relative] = file
        }
        self.preloaded = preloaded
    }

    /// The response for `relativePath` (already percent-decoded), or nil when there is no such
    /// file inside the folder (refused paths answer nil as well: they are not there).
    public func response(for relativePath: String, request: Request) -> Response? {
        let asked = request.query["v"]
        if let file = preloaded[relativePath],
            let response = file.response(to: request, cacheControl: { $0 == asked ? Self.versionedCacheControl : cacheControl })
        {
            return response
        }
        guard let path = resolve(relativePath) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }

        let modified = Int(info.st_mtim.tv_sec)
        let etag = Self.etag(size: Int(info.st_size), modified: modified, nanoseconds: Int(info.st_mtim.tv_nsec))
        return Self.fileResponse(
            path: path, size: info.st_size, contentType: MediaType.forPath(path), etag: etag, modified: modified,
            cacheControl: cacheControl, request: request)
    }

    /// The version of a file kept in memory as it is now (re-read within a second of an edit), for
    /// its address; nil for a file that is not (too large, added later): it has the plain address.
    public func version(of relativePath: String) -> String? {
        preloaded[relativePath]?.current()?.version
    }

    /// A regular file sent from its descriptor, or 304 when the client's copy is current.
    public static func fileResponse(
        path: String, size: Int, contentType: String, etag: String, modified: Int, cacheControl: String, request: Request
    ) -> Response? {
        var headers: [(name: String, value: String)] = [
            ("ETag", etag),
            ("Last-Modified", HTTPDate.string(fromUnixSeconds: modified)),
            ("Cache-Control", cacheControl),
        ]
        if notModified(request, etag: etag, modified: modified) {
            return Response(status: 304, headers: headers)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        headers.insert(("Content-Type", contentType), at: 0)
        return Response(status: 200, headers: headers, body: .file(descriptor: descriptor, size: UInt64(size)))
    }

    /// The validator of a file's version: size and modification time.
    static func etag(size: Int, modified: Int, nanoseconds: Int) -> String {
        "\"\(String(size, radix: 16))-\(String(modified, radix: 16))-\(String(nanoseconds, radix: 16))\""
    }

    /// The real path of a file inside the folder, or nil.
    func resolve(_ relativePath: String) -> String? { Self.resolve(relativePath, in: root) }

    static func resolve(_ relativePath: String, in root: String) -> String? {
        guard !relativePath.contains("\0"), !relativePath.contains("\\") else { return nil }
        let segments = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        // No "..", no ".", no hidden files.
        guard !segments.isEmpty, !segments.contains(where: { $0.hasPrefix(".") }) else { return nil }
        guard let real = Self.realPath(root + "/" + segments.joined(separator: "/")) else { return nil }
        return real.hasPrefix(root + "/") ? real : nil
    }

    static func notModified(_ request: Request, etag: String, modified: Int) -> Bool {
        if let match = request.headers["if-none-match"] {
            // If-None-Match wins over If-Modified-Since when present (RFC 9110 13.2.2).
            return ifNoneMatch(match, names: etag)
        }
        if let since = request.headers["if-modified-since"], let seconds = HTTPDate.unixSeconds(from: since) {
            return modified <= seconds
        }
        return false
    }

    /// Whether an `If-None-Match` value names `etag` (weakly compared, as a GET's is), or is `*`.
    static func ifNoneMatch(_ header: String, names etag: String) -> Bool {
        header.split(separator: ",").contains {
            let tag = $0.trimmingCharacters(in: " \t")
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Content types by file extension for what `Public/` holds.
public enum MediaType {
    static let byExtension: [String: String] = [
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "html": "text/html; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
        "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
    ]

    public static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
