import APIContract
import Foundation
import HTTPServer
import HTTPTypes
import Inventory
import Logging
import OpenAPIRuntime

/// Who an API request acts as, for the generated handlers: set by `APIRoutes` around each call.
enum APICaller {
    @TaskLocal static var holder: TokenHolder?
    @TaskLocal static var catalog: Catalog?

    /// The request's token holder; the routes set one before any handler runs.
    static var current: TokenHolder {
        get throws {
            guard let holder else { throw APIProblem(.unauthorized) }
            return holder
        }
    }
}

/// The thin transport between swift-openapi-generator's server stubs and Zaiko's own HTTP server:
/// each operation the generated code registers becomes a route of the site's router, and each
/// request to it is checked (bearer token, `Idempotency-Key`), turned into an `HTTPRequest`, run on
/// the answering thread (`waitForTask`) and turned back into a `Response`. Errors are problem details.
final class APIRoutes: ServerTransport, @unchecked Sendable {
    typealias Operation = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)

    /// The generated code's operations by method and path: routes of the site (`register(in:)`),
    /// and what requests made inside the server reach (MCP's tool calls). Only written while the
    /// generated code registers, before any request.
    private var operations = Router<Operation>()
    let accounts: Accounts
    let idempotency: IdempotentRequests
    let localizations: Localizations
    let clock: WallClock
    let logger: Logger
    /// The open event streams, which `GET /api/v1/events` joins.
    let live: LiveEvents
    /// The most body a request may send (the server's form limit: ten drafts are far below it).
    static let bodyLimit = 64 * 1024

    init(
        accounts: Accounts, idempotency: IdempotentRequests, localizations: Localizations, clock: WallClock, live: LiveEvents, logger: Logger
    ) {
        self.live = live
        self.accounts = accounts
        self.idempotency = idempotency
        self.localizations = localizations
        self.clock = clock
        self.logger = logger
    }

    func register(_ handler: @escaping Operation, method: HTTPRequest.Method, path: String) throws {
        operations.add(method.rawValue, path, handler)
    }

    /// The operations whose answer is a stream the server feeds over time (`x-zaiko-stream` in the
    /// document): answered here, since the transport hands the generated code whole bodies.
    static let streamed: Set<String> = [Route.API.v1 + "/events"]

    /// Every registered operation as a route.
    func register(in router: inout Router<Endpoint>) {
        for route in operations.routes {
            let operation = route.handler
            let endpoint =
                Self.streamed.contains(route.pattern)
                ? Endpoint(access: .token) { [self] context in events(context) }
                : Endpoint(access: .token) { [self] context in answer(context, operation) }
            router.add(route.method, route.pattern, endpoint)
        }
    }

    /// `GET /api/v1/events`: the token holder's stream of their household's changes, the one the
    /// pages read (`LiveEvents`); it ends when the token is revoked.
    func events(_ context: RequestContext) -> Response {
        authenticated(context.request) { request, holder, t in stream(request, holder: holder, t) }
    }

    private func stream(_ request: Request, holder: TokenHolder, _ t: Catalog) -> Response {
        if let since = request.query["since"], Int64(since).map({ $0 < 0 }) ?? true {
            return APIProblem(.invalid, values: ["reason": "since: 0 or more"]).response(t)
        }
        do {
            guard let response = try EventsController.stream(live, for: LiveEvents.Reader(holder), since: EventsController.since(request)) else {
                var problem = APIProblem(.busy)
                problem.headers = [("Retry-After", "60")]
                return problem.response(t)
            }
            return response
        } catch {
            return failure(error, request, t)
        }
    }

    /// Whether a path is the API's: its answers are problem details, never pages.
    func serves(_ request: Request) -> Bool { request.path.hasPrefix(Route.API.v1 + "/") }

    /// A request the server core refused before the API saw it (a body over the limit, a malformed one).
    func refused(_ request: Request, status: Int) -> Response {
        let kind: APIProblem.Kind = status == 413 ? .tooLarge : status < 500 ? .invalid : .server
        return APIProblem(kind, values: ["reason": "HTTP \(status)"]).response(catalog(for: nil, request))
    }

    func notFound(_ request: Request) -> Response { APIProblem(.notFound).response(catalog(for: nil, request)) }

    func methodNotAllowed(_ request: Request, allowed: [String]) -> Response {
        let methods = allowed.joined(separator: ", ")
        var problem = APIProblem(.methodNotAllowed, values: ["methods": methods])
        problem.headers = [("Allow", methods)]
        return problem.response(catalog(for: nil, request))
    }

    /// An API request made inside the server (an MCP tool call), routed and answered as one from
    /// outside: its token checked, its problems worded, its `Idempotency-Key` kept.
    func respond(toInternal request: Request) -> Response {
        guard case .found(let operation, let parameters) = operations.match(method: request.method, path: request.path) else {
            return notFound(request)
        }
        var request = request
        request.pathParameters = parameters
        return answer(RequestContext(request: request, negotiating: localizations), operation)
    }

    // MARK: - One request

    func answer(_ context: RequestContext, _ operation: @escaping Operation) -> Response {
        authenticated(context.request) { request, holder, t in answer(request, holder: holder, t, operation) }
    }

    /// `answer` for a request whose holder is known: its `Idempotency-Key` first, then the operation.
    private func answer(_ request: Request, holder: TokenHolder, _ t: Catalog, _ operation: @escaping Operation) -> Response {
        let key = request.method == "GET" || request.method == "HEAD" ? nil : request.headers["idempotency-key"]
        if let key {
            guard IntentId(key) != nil else {
                return APIProblem(.invalid, values: ["reason": "Idempotency-Key: 8 to 64 letters, digits and hyphens"]).response(t)
            }
            do {
                switch try idempotency.claim(token: holder.tokenId, key: key, fingerprint: Self.fingerprint(request)) {
                case .claimed: break
                case .answered(let stored): return Self.replay(stored)
                case .usedForAnother: return APIProblem(.keyReused).response(t)
                case .running: return APIProblem(.keyRunning).response(t)
                case .doneWithoutAnswer: return APIProblem(.keyDoneWithoutAnswer).response(t)
                }
            } catch {
                return failure(error, request, t)
            }
        }
        let claimed = key.map { IdempotentRequests.Key(token: holder.tokenId, key: $0) }
        let response = run(operation, request, holder: holder, t, claimed: claimed)
        if let key {
            do {
                if response.status >= 500 {
                    try idempotency.release(token: holder.tokenId, key: key)
                } else if case .bytes(let body) = response.body {
                    try idempotency.keep(
                        StoredAnswer(status: response.status, contentType: response.header("Content-Type"), etag: response.header("ETag"), body: body),
                        token: holder.tokenId, key: key)
                }
            } catch {
                logger.error("could not keep an idempotent answer", metadata: ["error": "\(error)"])
            }
        }
        return response
    }

    /// The generated handler on this thread, with the request's holder and catalog.
    /// `claimed`: the request's `Idempotency-Key`, which its writes mark done as they commit.
    private func run(_ operation: @escaping Operation, _ request: Request, holder: TokenHolder, _ t: Catalog, claimed: IdempotentRequests.Key?)
        -> Response
    {
        let httpRequest = Self.httpRequest(request)
        let body = request.body.isEmpty ? nil : HTTPBody(request.body)
        let metadata = ServerRequestMetadata(pathParameters: request.pathParameters.mapValues { Substring($0) })
        let outcome: Result<(HTTPResponse, [UInt8]), any Error> = waitForTask {
            do {
                return .success(
                    try await APICaller.$holder.withValue(holder) {
                        try await APICaller.$catalog.withValue(t) {
                            try await IdempotentRequests.Key.$current.withValue(claimed) {
                                let (response, body) = try await operation(httpRequest, body, metadata)
                                guard let body else { return (response, []) }
                                return (response, try await [UInt8](collecting: body, upTo: 16 * 1024 * 1024))
                            }
                        }
                    })
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let (response, bytes)):
            // The runtime writes header values percent-encoded (OpenAPI's simple style): an ETag's
            // quotes are given back, as HTTP spells them.
            let headers = response.headerFields.map { field in
                (field.name.rawName, field.name == .eTag ? field.value.removingPercentEncoding ?? field.value : field.value)
            }
            return Response(status: response.status.code, headers: headers, body: .bytes(bytes))
        case .failure(let error):
            return failure(error, request, t)
        }
    }

    /// A thrown error as problem details: the handlers' own, a request that does not fit the
    /// document (400), else a failure of the server (logged, 500).
    private func failure(_ error: any Error, _ request: Request, _ t: Catalog) -> Response {
        let serverError = error as? OpenAPIRuntime.ServerError
        if let problem = APIProblem(serverError?.underlyingError ?? error) { return problem.response(t) }
        if let serverError, serverError.operationInput == nil || (400..<500).contains(serverError.httpStatus.code) {
            let reason = "\(serverError.causeDescription) (\(serverError.underlyingError))"
            return APIProblem(.invalid, values: ["reason": String(reason.prefix(300))]).response(t)
        }
        let fields: Logger.Metadata = ["method": "\(RequestLog.method(request.method))", "route": "\(RequestLog.route(request))", "error": "\(error)"]
        logger.error("API request failed", metadata: fields)
        return APIProblem(.server).response(t)
    }

    /// `work` for the request's token holder, in their language; else the problem: no token or a
    /// bad one (401), too many bad ones (429).
    func authenticated(_ request: Request, _ work: (Request, TokenHolder, Catalog) -> Response) -> Response {
        switch authenticate(request) {
        case .success(let holder): work(request, holder, catalog(for: holder, request))
        case .failure(let problem): problem.response(catalog(for: nil, request))
        }
    }

    /// The token's holder, or the problem to answer: no token or a bad one (401), too many bad ones (429).
    private func authenticate(_ request: Request) -> Result<TokenHolder, APIProblem> {
        guard let header = request.headers["authorization"], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return .failure(Self.unauthorized)
        }
        do {
            switch try accounts.checkToken(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces), peer: request.clientAddress) {
            case .valid(let holder): return .success(holder)
            case .rejected: return .failure(Self.unauthorized)
            case .throttled(let until):
                let seconds = max(1, Int(until.timeIntervalSince(clock.now()).rounded(.up)))
                var problem = APIProblem(.throttled, values: ["seconds": String(seconds)])
                problem.headers = [("Retry-After", String(seconds))]
                return .failure(problem)
            }
        } catch {
            logger.error("API token check failed", metadata: ["error": "\(error)"])
            return .failure(APIProblem(.server))
        }
    }

    private static var unauthorized: APIProblem {
        var problem = APIProblem(.unauthorized)
        problem.headers = [("WWW-Authenticate", "Bearer")]
        return problem
    }

    /// The member's language, else the request's.
    func catalog(for holder: TokenHolder?, _ request: Request) -> Catalog {
        if let language = holder?.language, let catalog = localizations.catalogs[language] { return catalog }
        return localizations.negotiate(request.headers["accept-language"])
    }

    // MARK: - Between the two HTTP types

    static func httpRequest(_ request: Request) -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in request.headers.pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let method = HTTPRequest.Method(request.method) ?? .get
        return HTTPRequest(method: method, scheme: nil, authority: nil, path: pathAndQuery(request), headerFields: fields)
    }

    /// The path with the query as the generated decoders read it: every value percent-encoded again.
    static func pathAndQuery(_ request: Request) -> String {
        let path = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? request.path
        guard !request.query.isEmpty else { return path }
        let query = request.query.pairs.map { pair in
            let name = pair.name.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? ""
            let value = pair.value.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? ""
            return name + "=" + value
        }
        return path + "?" + query.joined(separator: "&")
    }

    /// What makes two requests with one `Idempotency-Key` the same request.
    static func fingerprint(_ request: Request) -> [UInt8] {
        Crypto.sha256(Array("\(request.method) \(pathAndQuery(request))\n".utf8) + request.body)
    }

    static func replay(_ stored: StoredAnswer) -> Response {
        var headers: [(name: String, value: String)] = [("Idempotent-Replayed", "true")]
        if let type = stored.contentType { headers.append(("Content-Type", type)) }
        if let etag = stored.etag { headers.append(("ETag", etag)) }
        return Response(status: stored.status, headers: headers, body: .bytes(stored.body))
    }
}

/// Dates in the API as Zaiko stores them (`2026-11-28T09:30:00Z`, RFC 3339 to the second), by
/// `Timestamp`'s own arithmetic: the runtime's ISO 8601 formatter takes a lock per date.
struct TimestampTranscoder: DateTranscoder {
    struct NotATimestamp: Error {}

    func encode(_ date: Date) throws -> String { Timestamp(date).description }

    func decode(_ text: String) throws -> Date {
        guard let timestamp = Timestamp(text) else { throw NotATimestamp() }
        return timestamp.date
    }
}
