import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What came back from an outbound request.
public struct OutboundResponse: Sendable, Equatable {
    public let status: Int
    public let headers: [String: String]
    /// At most `maxResponseBytes` of the body.
    public let body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Why an outbound request did not get an answer.
public enum OutboundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Only absolute http and https addresses are reached.
    case unsupportedURL(String)
    /// The address (or one the name resolves to) is on the server's own machine or local network,
    /// and the operator did not allow such targets.
    case refusedAddress(String)
    /// The name does not resolve.
    case unreachable(String)
    case timedOut
    /// The answer was larger than the caller allows.
    case responseTooLarge(limit: Int)
    /// Connection refused, unknown host, TLS failure, …: the system's words.
    case transport(String)

    public var description: String {
        switch self {
        case .unsupportedURL(let url): return "not an http or https address: \(url)"
        case .refusedAddress(let host): return "\(host) is a local or private address (see --allow-private-outbound)"
        case .unreachable(let message): return message
        case .timedOut: return "no answer in time"
        case .responseTooLarge(let limit): return "answer larger than \(limit) bytes"
        case .transport(let message): return message
        }
    }
}

/// Sends a request somewhere else; injectable so tests and the engine can replace the network.
public protocol OutboundSending: Sendable {
    func send(
        method: String, url: URL, headers: [(String, String)], body: [UInt8], timeout: TimeInterval, maxResponseBytes: Int
    ) async throws(OutboundError) -> OutboundResponse
}

/// HTTP out of Zaiko through URLSession (FoundationNetworking): to the given address only, never
/// following a redirect (a 3xx comes back as the answer), with a short overall timeout and a cap
/// on how much of the answer is read. No cookies, no cache, no stored credentials.
///
/// Where a request may go is decided here, after name resolution: every address the host name
/// resolves to must be allowed by the policy (a name that resolves to 127.0.0.1 is as local as
/// the number). A plain-http request is then sent to the very address that was checked (the URL's
/// host replaced by it, the name kept in `Host:`), so a name that resolves differently a moment
/// later (DNS rebinding) cannot move it. An https request is sent by name, as its certificate is
/// checked against the name: a rebound name reaches at most a TLS handshake with a local service,
/// which cannot present a certificate for that name, and no request is sent.
public struct OutboundHTTP: OutboundSending {
    let policy: AddressPolicy
    let resolver: any HostResolving

    public init(policy: AddressPolicy = .publicOnly, resolver: any HostResolving = SystemResolver()) {
        self.policy = policy
        self.resolver = resolver
    }

    public func send(
        method: String, url: URL, headers: [(String, String)] = [], body: [UInt8] = [], timeout: TimeInterval = 10,
        maxResponseBytes: Int = 64 * 1024
    ) async throws(OutboundError) -> OutboundResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw .unsupportedURL(url.absoluteString)
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let literal = IPAddress(host)
        let addresses: [IPAddress]
        if let literal { addresses = [literal] } else { addresses = try await resolver.addresses(of: host, port: port) }
        guard let first = addresses.first, addresses.allSatisfy(policy.permits) else { throw .refusedAddress(host) }
        // A name over plain http: pinned to the address just checked.
        let pinned = scheme == "http" && literal == nil
        var target = url
        if pinned {
            components.host = first.urlHost
            guard let pinned = components.url else { throw .unsupportedURL(url.absoluteString) }
            target = pinned
        }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if pinned { request.setValue(url.port.map { "\(host):\($0)" } ?? host, forHTTPHeaderField: "Host") }
        if !body.isEmpty || method == "POST" || method == "PUT" { request.httpBody = Data(body) }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.connectionProxyDictionary = [:]
        let delegate = Collector(limit: maxResponseBytes, deadline: timeout)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result = await withCheckedContinuation { continuation in
            delegate.start(session.dataTask(with: request), continuation)
        }
        return try result.get()
    }
}

/// Gathers one task's answer: refuses redirects, stops reading past the limit.
private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Touched from URLSession's delegate queue, one callback at a time, and `start` before the task runs.
    let limit: Int
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<OutboundResponse, OutboundError>, Never>?
    private var response: HTTPURLResponse?
    private var data = [UInt8]()
    private var tooLarge = false
    private var expired = false
    /// The whole exchange's limit. URLSession on Linux restarts its timeout at every chunk, so a
    /// server sending one byte at a time would otherwise hold the request for hours.
    let deadline: TimeInterval

    init(limit: Int, deadline: TimeInterval) {
        self.limit = limit
        self.deadline = deadline
    }

    func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Result<OutboundResponse, OutboundError>, Never>) {
        lock.withLock { self.continuation = continuation }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self, weak task] in
            guard let self, let task else { return }
            let running = self.lock.withLock { () -> Bool in
                guard self.continuation != nil else { return false }
                self.expired = true
                return true
            }
            if running { task.cancel() }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Only the configured address: a redirect is reported as the answer, never followed.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { self.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive chunk: Data) {
        let over = lock.withLock {
            if data.count + chunk.count > limit {
                tooLarge = true
                return true
            }
            data += chunk
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = lock.withLock {
            () -> (CheckedContinuation<Result<OutboundResponse, OutboundError>, Never>?, Result<OutboundResponse, OutboundError>) in
            let taken = self.continuation
            self.continuation = nil
            let http = response ?? (task.response as? HTTPURLResponse)
            if tooLarge { return (taken, .failure(.responseTooLarge(limit: limit))) }
            if expired { return (taken, .failure(.timedOut)) }
            if let error {
                let code = (error as? URLError)?.code
                // A refused redirect ends some URLSession versions with an error, though the answer is there.
                if let http, (300..<400).contains(http.statusCode) {
                    return (taken, .success(Self.answer(http, data)))
                }
                if code == .timedOut { return (taken, .failure(.timedOut)) }
                return (taken, .failure(.transport(error.localizedDescription)))
            }
            guard let http else { return (taken, .failure(.transport("no HTTP answer"))) }
            return (taken, .success(Self.answer(http, data)))
        }
        continuation?.resume(returning: result)
    }

    static func answer(_ http: HTTPURLResponse, _ data: [UInt8]) -> OutboundResponse {
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return OutboundResponse(status: http.statusCode, headers: headers, body: data)
    }
}
