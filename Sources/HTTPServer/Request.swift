import Foundation

/// A file part of a multipart body, streamed to a temporary file that the server removes
/// when the request ends (move it elsewhere to keep it).
public struct UploadedFile: Sendable {
    /// The form field the file came in.
    public let fieldName: String
    /// The name the client gave; never use it as a path.
    public let clientFileName: String
    /// What the client declared; never trust it for the real type.
    public let declaredContentType: String?
    public let temporaryURL: URL
    public let size: Int
    /// The `errno` of the server's own disk when the part could not be written to its temporary
    /// file (full, read-only): the rest of the form still arrives, and the page can say so beside
    /// the field. `temporaryURL` then holds nothing usable.
    public let writeError: Int32?

    public init(fieldName: String, clientFileName: String, declaredContentType: String?, temporaryURL: URL, size: Int, writeError: Int32? = nil) {
        self.fieldName = fieldName
        self.clientFileName = clientFileName
        self.declaredContentType = declaredContentType
        self.temporaryURL = temporaryURL
        self.size = size
        self.writeError = writeError
    }
}

/// One HTTP request, fully read and copied into Swift values.
public struct Request: Sendable {
    public let method: String
    /// Percent-decoded path, without the query string.
    public let path: String
    public let query: Parameters
    public let headers: Headers
    /// Every cookie, parsed when asked for (`cookie(_:)` finds one without building this).
    public var cookies: [String: String] { Cookies.parse(headers["cookie"]) }
    /// Fields of an urlencoded or multipart body.
    public let form: Parameters
    public let files: [UploadedFile]
    /// The raw body when it was neither urlencoded nor multipart.
    public let body: [UInt8]
    /// The TCP peer's address (never taken from forwarding headers).
    public let clientAddress: String
    /// When the server began reading the request (monotonic), for durations.
    public let startedAt: ContinuousClock.Instant
    /// Values captured by the router from `{name}` segments.
    public var pathParameters: [String: String] = [:]
    /// The route pattern the path matched (`/join/{token}`), for logs; nil when none matched.
    public var routePattern: String?
    /// Whether the request came over HTTPS (the TLS listener).
    public var isSecure = false
    /// What the responder's `admit` kept from the head for answering (`Admission.read`); nil when
    /// it kept nothing, and always nil in the head `admit` itself is given.
    public var admissionNote: (any Sendable)?

    public init(
        method: String, path: String, query: Parameters = Parameters(), headers: Headers = Headers(),
        form: Parameters = Parameters(), files: [UploadedFile] = [], body: [UInt8] = [],
        clientAddress: String = "", startedAt: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.form = form
        self.files = files
        self.body = body
        self.clientAddress = clientAddress
        self.startedAt = startedAt
    }

    /// The value of the first cookie called `name`, as `cookies[name]` would give it.
    public func cookie(_ name: String) -> String? { Cookies.value(named: name, in: headers["cookie"]) }
}
