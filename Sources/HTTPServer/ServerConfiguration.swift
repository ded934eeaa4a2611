import Foundation

/// How the server listens and what it tolerates from clients.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; `Server.port` tells which.
    public var port: UInt16
    /// Threads that read requests (libmicrohttpd's pool), and as many again that answer them.
    public var threads: Int
    /// Largest request body; a larger one gets 413 and is not read.
    public var maxBodyBytes: Int
    /// Most bytes of a body kept in memory: form text fields together, or a raw body. Only file
    /// parts, streamed to disk, may use the rest of `maxBodyBytes`.
    public var maxInMemoryBytes: Int
    /// Memory libmicrohttpd may use per connection for the request line and headers.
    public var headerMemoryBytes: Int
    public var maxConnections: Int
    /// Open connections from one client: an IPv4 address, or an IPv6 /64 (see `ClientKey`).
    public var maxConnectionsPerClient: Int
    /// Seconds a connection may sit idle before it is closed.
    public var inactivityTimeout: Int
    /// Time a request's headers may take from the connection opening (or the previous answer),
    /// however steadily its bytes trickle in.
    public var headerDeadline: Duration
    /// Bytes per second a body must average: its deadline is `headerDeadline` plus its size
    /// (Content-Length, else the largest it may be) at this rate.
    public var minimumUploadRate: Int
    /// Most query parameters in a URL; more get 414. (libmicrohttpd keeps each in the header
    /// memory, and when that runs out it cannot even send an error.)
    public var maxQueryParameters: Int
    /// Addresses of reverse proxies whose connections are counted by the client address they
    /// forward (the last `X-Forwarded-For` entry, else the last `Forwarded: for=`), for the
    /// per-client limits and `Request.clientAddress`. From anyone else these headers are ignored.
    public var trustedProxies: [String] = []
    /// Where uploaded file parts are streamed (inside the data directory).
    public var uploadDirectory: URL
    /// Serve HTTPS with this certificate instead of plain HTTP; requests are marked `isSecure`.
    public var tls: TLSListener?

    public init(
        host: String = "0.0.0.0", port: UInt16 = 8080,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxBodyBytes: Int = 20 * 1024 * 1024, maxInMemoryBytes: Int = 1024 * 1024, headerMemoryBytes: Int = 64 * 1024,
        maxConnections: Int = 512, maxConnectionsPerClient: Int = 32, inactivityTimeout: Int = 30,
        headerDeadline: Duration = .seconds(30), minimumUploadRate: Int = 16 * 1024, maxQueryParameters: Int = 256,
        uploadDirectory: URL = FileManager.default.temporaryDirectory, tls: TLSListener? = nil
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxInMemoryBytes = maxInMemoryBytes
        self.headerMemoryBytes = headerMemoryBytes
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.inactivityTimeout = inactivityTimeout
        self.headerDeadline = headerDeadline
        self.minimumUploadRate = minimumUploadRate
        self.maxQueryParameters = maxQueryParameters
        self.uploadDirectory = uploadDirectory
        self.tls = tls
    }
}

/// What the application provides to answer requests.
public protocol Responder: Sendable {
    /// Decides, from the request line and headers alone (`form`, `files` and `body` are empty),
    /// how much body to read or whether to answer at once. Runs before any body byte is read, so
    /// uploads can be kept to the routes and sessions that may use them.
    func admit(_ head: Request) -> Admission
    func respond(to request: Request) -> Response
    /// Whether the request is answered at once on the thread that read it, without waiting its
    /// turn for an answering thread: only for answers that take microseconds (static files).
    func answersInline(_ request: Request) -> Bool
    /// Answers a request the core refused before the application saw it (400 malformed body,
    /// 413 body too large), so the page can be the application's own.
    func respond(toRefused request: Request, status: Int) -> Response
}

extension Responder {
    public func admit(_ head: Request) -> Admission { .read(.serverLimits) }
    public func answersInline(_ request: Request) -> Bool { false }
}

public enum ServerError: Error, CustomStringConvertible {
    case addressInUse(host: String, port: UInt16)
    case invalidHost(String)
    case hostNotOnThisMachine(String)
    case permissionDenied(port: UInt16)
    case cannotListen(host: String, port: UInt16, reason: String)
    case tlsUnsupported
    /// A certificate or key file that cannot be used, said in one sentence.
    case certificate(String)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            return "Port \(port) on \(host) is already in use; stop the other program or choose another port with --port."
        case .invalidHost(let host):
            return "\"\(host)\" is not an IP address this server can listen on; use --host with an address such as 0.0.0.0."
        case .hostNotOnThisMachine(let host):
            return "\(host) is not an address of this machine; use --host with one of its addresses, or 0.0.0.0 for all."
        case .permissionDenied(let port):
            return "Not allowed to listen on port \(port); ports below 1024 need extra rights, choose another with --port."
        case .cannotListen(let host, let port, let reason):
            return "Cannot listen on \(host):\(port): \(reason)."
        case .tlsUnsupported:
            return "This libmicrohttpd was built without TLS (GnuTLS), so Zaiko cannot serve HTTPS; run with --no-https or install a libmicrohttpd with TLS."
        case .certificate(let sentence):
            return sentence + "."
        }
    }
}
