/// How much of a body the server reads for one request, decided when its headers are in and
/// before any of the body is read.
public struct BodyLimit: Sendable, Equatable {
    /// Largest body; a larger one gets 413 without being read (the server's own limit still caps it).
    public var maxBytes: Int
    /// Whether multipart file parts may be streamed to disk; when false a file part is refused (413).
    public var allowsFiles: Bool

    public init(maxBytes: Int, allowsFiles: Bool) {
        self.maxBytes = maxBytes
        self.allowsFiles = allowsFiles
    }

    /// Whatever the server's configuration allows.
    public static let serverLimits = BodyLimit(maxBytes: .max, allowsFiles: true)
}

/// The application's decision at header time.
public enum Admission: Sendable {
    /// Read the body within this limit, then `Responder.respond(to:)`. `note` is handed back with
    /// the whole request (`Request.admissionNote`), so what was worked out from the head (a route,
    /// a session) is not worked out again.
    case read(BodyLimit, note: (any Sendable)? = nil)
    /// Answer now and read nothing (the connection is closed after the answer).
    case answer(Response)
}
