import CMicroHTTPD
import Foundation
import Synchronization

/// The HTTP server: libmicrohttpd with its own polling threads (epoll, a thread pool) reading
/// requests, and an `AnswerQueue` whose threads hand each fully read request to a `Responder`, first
/// come first served. Quick answers (static files) are given on the thread that read the request.
public final class Server: @unchecked Sendable {
    // Mutable state (answers, port, certificate) is only written by start, called from one thread.
    public let configuration: ServerConfiguration
    let responder: any Responder
    /// The running libmicrohttpd daemon, which owns the listening socket from start to stop. Set by
    /// `start`; `shutdown` takes it, so only one stop (of several, or of two at once) stops it.
    private let daemon = Atomic<OpaquePointer?>(nil)
    /// Set by `start` before libmicrohttpd runs and never cleared, so its threads read it unraced.
    private var answers: AnswerQueue?
    /// Requests handed to the responder and not yet completed: a graceful stop waits for these
    /// only. Requests still receiving their body were never acknowledged and are dropped.
    let answering = Atomic<Int>(0)
    /// Set once shutting down: new connections are then closed at once, and answers close their
    /// connection, so keep-alive clients leave.
    let stopping = Atomic<Bool>(false)
    /// Per-client connection counts and request deadlines.
    let connections: ConnectionGuard
    /// Streamed answers being sent: a stop ends them, since libmicrohttpd must not be stopped with a
    /// connection suspended and a stream's connection is suspended between sends.
    let streams = OpenStreams()
    public private(set) var port: UInt16 = 0
    /// The certificate of an HTTPS listener, reloaded when its files change.
    private var certificate: ReloadingCertificate?
    /// Told when a changed certificate cannot be loaded (the previous one stays in use).
    public var certificateReloadFailed: @Sendable (String) -> Void = { _ in }

    public init(configuration: ServerConfiguration, responder: any Responder) {
        self.configuration = configuration
        self.responder = responder
        self.connections = ConnectionGuard(
            maxPerClient: max(1, configuration.maxConnectionsPerClient), maxConnections: max(1, configuration.maxConnections),
            headerDeadline: configuration.headerDeadline, minimumUploadRate: configuration.minimumUploadRate,
            trustedProxies: Set(configuration.trustedProxies.compactMap(ClientKey.init)))
    }

    deinit { shutdown(grace: .zero) }

    /// Binds and starts serving; throws a `ServerError` that reads as one sentence.
    public func start() throws {
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        try address.checkAvailable(host: configuration.host)

        var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        if address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        if let tls = configuration.tls {
            guard zaiko_mhd_supports_tls() != 0 else { throw ServerError.tlsUnsupported }
            certificate = try ReloadingCertificate(tls, reloadFailed: certificateReloadFailed)
            flags |= UInt32(MHD_USE_TLS.rawValue)
        }
        let priorities = configuration.tls.map { strdup($0.priorities) } ?? nil
        defer { free(priorities) }
        let answers = AnswerQueue(threads: configuration.threads, name: "zaiko-answer")
        self.answers = answers
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var config = zaiko_mhd_config(
                flags: flags,
                address: sockaddr,
                thread_pool_size: UInt32(max(1, configuration.threads)),
                connection_limit: UInt32(configuration.maxConnections),
                // Counted by ConnectionGuard instead, which groups IPv6 clients by /64.
                per_ip_connection_limit: 0,
                connection_timeout_seconds: UInt32(configuration.inactivityTimeout),
                connection_memory_limit: configuration.headerMemoryBytes,
                access_handler: accessHandler,
                access_handler_cls: Unmanaged.passUnretained(self).toOpaque(),
                completed: requestCompleted,
                completed_cls: Unmanaged.passUnretained(self).toOpaque(),
                accept_policy: acceptPolicy,
                accept_policy_cls: Unmanaged.passUnretained(self).toOpaque(),
                notify_connection: connectionNotified,
                notify_connection_cls: Unmanaged.passUnretained(self).toOpaque(),
                uri_log: requestLineSeen,
                uri_log_cls: Unmanaged.passUnretained(self).toOpaque(),
                https_priorities: UnsafePointer(priorities),
                https_cert_callback: certificate == nil ? nil : unsafeBitCast(CertificateRetrieval.callback, to: UnsafeMutableRawPointer.self))
            return zaiko_mhd_start(&config)
        }
        guard let started else {
            answers.stop(upTo: .zero)
            throw ServerError.cannotListen(
                host: configuration.host, port: configuration.port,
                reason: configuration.tls == nil ? "libmicrohttpd refused to start" : "libmicrohttpd refused to start TLS with these priorities")
        }
        daemon.store(started, ordering: .releasing)
        port = zaiko_mhd_bound_port(started)
        // Handshakes on a connection accepted before this line fail (no certificate yet): the
        // port is only known once bound.
        if let certificate { CertificateRetrieval.register(certificate, port: port) }
        connections.startSweeping()
    }

    /// Stops accepting connections and lets requests being answered finish for at most `grace`;
    /// then drops the requests still waiting their turn and gives the ones being answered at most
    /// `runningLimit` more. An answer still running then (a handler that does not return) is given
    /// up: its connection is closed unanswered and its label ("POST /path") returned, so a stop
    /// always ends. A request still receiving its body is dropped at once: nothing was acknowledged.
    /// Only the first call stops the server; any other returns at once.
    @discardableResult
    public func shutdown(grace: Duration = .seconds(10), runningLimit: Duration = .seconds(2)) -> [String] {
        guard let daemon = daemon.exchange(nil, ordering: .acquiringAndReleasing) else { return [] }
        // Sequentially consistent with `answer`: either it sees `stopping` and drops the request,
        // or this loop sees the request counted and waits for it. From here on `acceptPolicy`
        // closes every new connection at once. Not `MHD_quiesce_daemon`: with a thread pool on
        // epoll it takes the listening socket out of each thread's epoll set while that thread,
        // awake for a connection, may see the quiesce and take it out itself; the second
        // EPOLL_CTL_DEL fails and libmicrohttpd aborts the process ("Failed to remove listen FD
        // from epoll set", daemon.c:5531 in 0.9.75; upstream still has the race).
        stopping.store(true, ordering: .sequentiallyConsistent)
        streams.endAll()
        waitForAnswers(upTo: grace)
        // Waiting requests are dropped, the ones being answered finish or are given up. libmicrohttpd
        // must not be stopped with a connection still suspended: the dropped ones are closed first.
        let abandoned = answers?.stop(upTo: runningLimit) ?? []
        waitForAnswers(upTo: .seconds(2))
        // Joins libmicrohttpd's threads, then closes the listening socket.
        MHD_stop_daemon(daemon)
        connections.stopSweeping()
        if let certificate { CertificateRetrieval.unregister(certificate, port: port) }
        return abandoned
    }

    /// Until every request handed to the responder is completed (sent or dropped), or `limit` passes.
    private func waitForAnswers(upTo limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while answering.load(ordering: .sequentiallyConsistent) > 0, ContinuousClock.now < deadline {
            usleep(1_000)
        }
    }

    // MARK: - Called from libmicrohttpd's threads

    func begin(_ connection: OpaquePointer, url: String, method: String) -> RequestState {
        let state = RequestState(method: method, path: url, uploadDirectory: configuration.uploadDirectory)
        withUnsafeMutablePointer(to: &state.headers) { headers in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, headers)
        }
        withUnsafeMutablePointer(to: &state.query) { query in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectParameter, query)
        }
        state.isSecure = configuration.tls != nil
        state.connection = zaiko_mhd_socket_context(connection).map { Unmanaged<ConnectionGuard.Connection>.fromOpaque($0).takeUnretainedValue() }
        // The peer stays the same for the connection's life: its address is written out once.
        if let tracked = state.connection {
            let address = tracked.address ?? Self.clientAddress(connection)
            tracked.address = address
            state.clientAddress = address
        } else {
            state.clientAddress = Self.clientAddress(connection)
        }
        if let tracked = state.connection, tracked.isOverLimit {
            state.immediateAnswer = Self.tooManyConnections()
            return state
        }
        // Behind a trusted reverse proxy, the client is the address it forwards.
        if let tracked = state.connection, tracked.isFromTrustedProxy,
            let forwarded = ForwardedFor.client(state.headers), let client = ClientKey(forwarded)
        {
            state.clientAddress = forwarded
            guard connections.forwarded(tracked, for: client) else {
                state.immediateAnswer = Self.tooManyConnections()
                return state
            }
        }

        if let tracked = state.connection, tracked.queryTooLong {
            tracked.queryTooLong = false
            state.refusal = 414
            return state
        }
        // No browser sends a form in chunks; refusing them keeps libmicrohttpd's own chunk parser
        // (and its own error pages) out of the way.
        if state.headers["transfer-encoding"] != nil {
            state.refusal = 411
            return state
        }
        let limit: BodyLimit
        switch responder.admit(state.makeRequest()) {
        case .answer(let response):
            state.immediateAnswer = response
            return state
        case .read(let admitted, let note):
            limit = admitted
            state.admissionNote = note
        }
        state.maxBodyBytes = min(limit.maxBytes, configuration.maxBodyBytes)
        state.maxInMemoryBytes = min(state.maxBodyBytes, configuration.maxInMemoryBytes)
        state.allowsFiles = limit.allowsFiles

        // Only multipart bodies may carry files to disk; any other body is held in memory whole.
        let isMultipart = state.headers["content-type"]?.lowercased().hasPrefix("multipart/form-data") == true
        let bodyLimit = isMultipart && state.allowsFiles ? state.maxBodyBytes : state.maxInMemoryBytes
        let declared = state.headers["content-length"].flatMap(Int.init)
        if let declared, declared > bodyLimit {
            state.refusal = 413
            return state
        }
        switch method {
        case "POST", "PUT", "PATCH", "DELETE":
            // nil for bodies that are not urlencoded or multipart: those are kept raw.
            state.postProcessor = MHD_create_post_processor(
                connection, 64 * 1024, postIterator, Unmanaged.passUnretained(state).toOpaque())
        default:
            break
        }
        if let tracked = state.connection { connections.receivingBody(tracked, upTo: min(declared ?? bodyLimit, bodyLimit)) }
        return state
    }

    /// The answer to a connection past its client's limit (then closed): wait and try again.
    static func tooManyConnections() -> Response {
        var response = Response(
            status: 503, contentType: "text/plain; charset=utf-8",
            text: "Too many connections from your address at once; try again in a moment.\n")
        response.setHeader("Retry-After", String(ConnectionGuard.retryAfterSeconds))
        return response
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            zaiko_mhd_client_address(connection, buffer.baseAddress!, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }

    /// Answers a request whose body is in (or refused): at once when it is quick, else in its turn
    /// on the answering threads, its connection suspended meanwhile. `.NO` (the connection is
    /// dropped) once the server is stopping.
    func answer(_ state: RequestState, on connection: OpaquePointer) -> MHD_Result {
        state.answered = true
        answering.add(1, ordering: .sequentiallyConsistent)
        if stopping.load(ordering: .sequentiallyConsistent) { return .NO }
        if let tracked = state.connection { connections.answering(tracked) }
        let request = state.makeRequest()
        guard !state.answersBeforeBody, let answers, !responder.answersInline(request) else {
            return queue(response(to: request, state), on: connection)
        }
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(pointer: connection)
        // Answered or dropped, whichever comes first: a stop may give up an answer still running,
        // and the connection must not be resumed again when that answer ends after all.
        let settlement = Settlement()
        let queued = answers.enqueue(
            AnswerQueue.Job(
                label: "\(request.method.prefix(16)) \(request.path)",
                run: { [self] in
                    // Compressed here, on the answering thread, never on a polling thread.
                    let answer = PageCompression.compressed(response(to: request, state), for: request)
                    guard settlement.settle() else { return }
                    state.readyAnswer = answer
                    MHD_resume_connection(suspended.pointer)
                },
                drop: {
                    guard settlement.settle() else { return }
                    state.dropped = true
                    MHD_resume_connection(suspended.pointer)
                }))
        if !queued {
            state.dropped = true
            MHD_resume_connection(connection)
        }
        return .YES
    }

    /// The responder's answer; closes the connection after a refusal, or when stopping.
    private func response(to request: Request, _ state: RequestState) -> Response {
        var response: Response
        if let immediate = state.immediateAnswer {
            response = immediate
            response.setHeader("Connection", "close")
        } else if let refusal = state.refusal {
            response = responder.respond(toRefused: request, status: refusal)
            response.setHeader("Connection", "close")
        } else {
            response = responder.respond(to: request)
        }
        if stopping.load(ordering: .acquiring) { response.setHeader("Connection", "close") }
        return response
    }

    func complete(_ state: RequestState) {
        state.cleanUp()
        if state.answered { answering.subtract(1, ordering: .sequentiallyConsistent) }
        if let tracked = state.connection { connections.awaitingRequest(tracked) }
    }

    func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes) where bytes.isEmpty:
            mhdResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            // Sent from the array's own storage, without a copy (a page is written once, into
            // that array); `HeldBytes` keeps it until libmicrohttpd is done with it.
            let held = Unmanaged.passRetained(HeldBytes(bytes))
            let base = held.takeUnretainedValue().base
            mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, base, releaseHeld, held.toOpaque())
            if mhdResponse == nil { held.release() }
        case .file(let descriptor, let size):
            mhdResponse = MHD_create_response_from_fd64(size, descriptor)
            if mhdResponse == nil { close(descriptor) }
        case .shared(let shared):
            // libmicrohttpd sends from the shared memory; the reference is released once it is done.
            let retained = Unmanaged.passRetained(shared)
            mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(shared.count, shared.base, releaseShared, retained.toOpaque())
            if mhdResponse == nil { retained.release() }
        case .stream(let stream):
            // Of unknown length (sent chunked); libmicrohttpd asks the stream for bytes as the socket
            // takes them, and releases it once the connection is done.
            stream.attach(to: connection)
            let sending = Unmanaged.passRetained(SendingStream(stream, streams))
            streams.opened(stream)
            mhdResponse = MHD_create_response_from_callback(UInt64.max, 4096, readStream, sending.toOpaque(), releaseStream)
            if mhdResponse == nil { sending.takeRetainedValue().release() }
        }
        guard let mhdResponse else { return .NO }
        for (name, value) in response.headers {
            // withCString lends a native string's own bytes; passing the String copies it.
            _ = name.withCString { name in value.withCString { MHD_add_response_header(mhdResponse, name, $0) } }
        }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }
}

// MARK: - C callbacks (file scope, no captures: libmicrohttpd calls them from its own threads)

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return .NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = requestContext.pointee else {
        // First call: headers are in. Answering now would make libmicrohttpd close the
        // connection, so only remember the request; it is answered on a later call.
        let state = server.begin(connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET")
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        if state.answersBeforeBody {
            // Refused or answered by the application at header time: the body is never read.
            return server.answer(state, on: connection)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    if state.answered {
        // Called again once an answering thread resumed the connection.
        if let ready = state.readyAnswer {
            state.readyAnswer = nil
            return server.queue(ready, on: connection)
        }
        if state.dropped { return .NO }
        uploadDataSize.pointee = 0
        return .YES
    }
    if uploadDataSize.pointee > 0, let uploadData {
        let keep = state.consume(uploadData, count: uploadDataSize.pointee)
        uploadDataSize.pointee = 0
        if keep { return .YES }
        // Past the limit, which only a chunked body (no Content-Length) reaches here.
        // libmicrohttpd 0.9.75 cannot send a response in mid-upload, so the 413 is logged and
        // the connection closed: reading stops at once either way.
        return server.answer(state, on: connection)
    }
    state.finishBody()
    return server.answer(state, on: connection)
}

/// Whether a queued request was answered or dropped: only the first of the two may resume its
/// connection.
private final class Settlement: Sendable {
    private let done = Atomic<Bool>(false)
    /// True for the first caller only.
    func settle() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}

/// A suspended connection, resumed by the answering thread that took its request (libmicrohttpd
/// allows `MHD_resume_connection` from any thread).
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}

private let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return ResponseStream.endOfStream }
    return Unmanaged<SendingStream>.fromOpaque(cls).takeUnretainedValue().stream.read(into: buffer, max: max)
}

private let releaseStream: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<SendingStream>.fromOpaque(cls).takeRetainedValue().release()
}

private let releaseShared: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}

private let releaseHeld: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<HeldBytes>.fromOpaque(cls).release()
}

/// A response body held until libmicrohttpd has sent it. The array is never mutated and outlives
/// the send, so its contiguous storage stays where `base` found it.
private final class HeldBytes {
    let bytes: [UInt8]
    let base: UnsafeMutableRawPointer

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        base = UnsafeMutableRawPointer(mutating: self.bytes.withUnsafeBytes { $0.baseAddress! })
    }
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestContext, _ in
    guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    requestContext.pointee = nil
    server.complete(state)
}

private let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: Headers.self)
    headers.pointee.append(cName: key, cValue: value)
    return .YES
}

private let collectParameter: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let parameters = cls.assumingMemoryBound(to: Parameters.self)
    parameters.pointee.append(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

private let postIterator: MHD_PostDataIterator = { cls, _, key, fileName, contentType, _, data, offset, size in
    guard let cls, let key else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let accepted = state.receive(
        field: String(cString: key), fileName: fileName.map { String(cString: $0) },
        contentType: contentType.map { String(cString: $0) }, data: data, offset: offset, count: size)
    return accepted ? MHD_Result.YES : .NO
}

/// Refuses every connection once the server is stopping (libmicrohttpd closes it at once), and a
/// client's connection past what `ConnectionGuard` allows it.
private let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls else { return .YES }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    if server.stopping.load(ordering: .acquiring) { return .NO }
    guard let address, let client = ClientKey(address) else { return .YES }
    return server.connections.mayAccept(client) ? .YES : .NO
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
    guard let cls, let connection, let socketContext else { return }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    // MHD_CONNECTION_NOTIFY_STARTED (0) and MHD_CONNECTION_NOTIFY_CLOSED (1).
    switch event.rawValue {
    case 0:
        let client = zaiko_mhd_client_sockaddr(connection).flatMap(ClientKey.init) ?? .unknown
        let opened = server.connections.opened(client: client, socket: zaiko_mhd_connection_fd(connection))
        socketContext.pointee = Unmanaged.passRetained(opened).toOpaque()
    case 1:
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        server.connections.closed(Unmanaged<ConnectionGuard.Connection>.fromOpaque(pointer).takeRetainedValue())
    default:
        return
    }
}

/// Runs on the request line before libmicrohttpd parses its query. Too many parameters would use up
/// the connection's memory, after which libmicrohttpd cannot even answer: the query is cut off here
/// (the string is libmicrohttpd's own read buffer, which it modifies itself) and the request is
/// answered 414. Returns nil: the access handler makes the request's state.
private let requestLineSeen: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    cls, uri, connection in
    guard let cls, let uri, let connection else { return nil }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    guard let query = strchr(uri, Int32(UInt8(ascii: "?"))) else { return nil }
    var parameters = 1
    var cursor = query + 1
    while cursor.pointee != 0 {
        if cursor.pointee == CChar(UInt8(ascii: "&")) { parameters += 1 }
        cursor += 1
    }
    guard parameters > server.configuration.maxQueryParameters,
        let context = zaiko_mhd_socket_context(connection)
    else { return nil }
    UnsafeMutablePointer(mutating: query + 1).pointee = 0
    Unmanaged<ConnectionGuard.Connection>.fromOpaque(context).takeUnretainedValue().queryTooLong = true
    return nil
}
