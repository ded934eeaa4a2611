import Gzip

/// Answers made per request (pages, JSON, SVG, calendars) gzipped for a client that accepts gzip,
/// on the answering thread that made them: libmicrohttpd's polling threads only ever send bytes.
/// Public files are compressed once instead (`PreloadedFile`).
enum PageCompression {
    /// deflate level 1. On the 50-row stock page (93 KB) level 1 sends 8.9 KB for 0.3 ms of CPU,
    /// level 6 7.7 KB for 0.9 ms, level 9 7.5 KB for 1.5 ms (bench/README.md, "Pages gzipped"):
    /// every level fits the page in TCP's first window (10 segments, 14.6 KB), so the smaller
    /// forms save no round trip, only a few hundred bytes of a home network's Wi-Fi.
    static let level: Int32 = 1

    /// Smaller bodies are sent as they are: below a TCP segment (1,460 bytes on Ethernet) gzip
    /// saves no packet and no round trip, only the CPU it costs.
    static let smallestBody = 1460

    /// `response` gzipped when `request` accepts gzip and the body is text worth compressing; an
    /// answer that could be gzipped says `Vary: Accept-Encoding` either way, so a cache keeps the
    /// two apart. The gzipped form has its own ETag (`-gz`), and a request naming that tag gets 304.
    static func compressed(_ response: Response, for request: Request) -> Response {
        guard case .bytes(let body) = response.body, body.count >= smallestBody, response.header("Content-Encoding") == nil,
            let contentType = response.header("Content-Type"), ContentCoding.isCompressible(contentType),
            !contentType.lowercased().hasPrefix("text/event-stream")
        else { return response }
        var response = response
        response.headers.append(("Vary", "Accept-Encoding"))
        guard ContentCoding.acceptsGzip(request.headers["accept-encoding"]) else { return response }
        let etag = response.header("ETag").map(ContentCoding.gzipETag)
        if let etag { response.setHeader("ETag", etag) }
        if response.status == 200, let etag, let match = request.headers["if-none-match"], StaticFiles.ifNoneMatch(match, names: etag) {
            response.status = 304
            response.headers.removeAll { Response.sameName($0.name, "Content-Type") || Response.sameName($0.name, "Content-Length") }
            response.body = .bytes([])
            return response
        }
        response.headers.append(("Content-Encoding", "gzip"))
        response.body = .bytes(Gzip.compress(body, level: level))
        return response
    }
}
