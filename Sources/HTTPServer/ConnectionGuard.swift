import Foundation
import Synchronization

/// Keeps one client from holding the server: counts open connections per client (see
/// `ClientKey`) and cuts off any connection that has not delivered its request in time.
///
/// libmicrohttpd's own timeout restarts with every byte, so a client sending one byte every 29 s
/// keeps a connection forever; here every request has an absolute deadline instead: its headers
/// within `headerDeadline` of the connection opening (or of the previous answer), its body within
/// a time that grows with the size it may have. A sweeping thread shuts down the socket of a
/// connection past its deadline, and libmicrohttpd then closes it as if the client had left.
///
/// A client past its limit is still answered, `503` with `Retry-After` (a client that gets no answer
/// at all retries at once, and behind a proxy every member shares one address): up to as many
/// connections again are accepted for that, each with a short deadline. Connections from a trusted
/// reverse proxy are counted by the address it forwards, request by request.
///
/// Under pressure (more than three quarters of `maxConnections` open), each new connection makes
/// room: the oldest connection still waiting for its headers of the client holding the most is cut.
/// Many addresses trickling headers (slowloris) then cannot hold every slot: a newcomer is served.
final class ConnectionGuard: Sendable {
    /// One open connection; its mutable fields are only touched under `ConnectionGuard.state`.
    final class Connection: @unchecked Sendable {
        /// Who it is counted for: its peer, or the address a trusted proxy forwarded last.
        var client: ClientKey
        let socket: Int32
        /// From a trusted reverse proxy: each request names its client.
        let isFromTrustedProxy: Bool
        /// Opened past its client's limit: its request is answered 503 and the connection closed.
        let isOverLimit: Bool
        /// Reading must be over by then; nil while an answer is being sent.
        var deadline: ContinuousClock.Instant?
        /// Since when it has been waiting for a request's headers; nil once they are in.
        var awaitingHeadersSince: ContinuousClock.Instant?
        var isCut = false
        /// Set by libmicrohttpd's thread for this connection when the request line had more query
        /// parameters than allowed (they were dropped unparsed); read by the same thread.
        var queryTooLong = false
        /// The client's address as text, written by the first request's thread and read by the
        /// threads of later requests (libmicrohttpd serves a connection on one thread at a time).
        var address: String?

        init(client: ClientKey, socket: Int32, isFromTrustedProxy: Bool, isOverLimit: Bool, now: ContinuousClock.Instant, deadline: Duration) {
            self.client = client
            self.socket = socket
            self.isFromTrustedProxy = isFromTrustedProxy
            self.isOverLimit = isOverLimit
            self.deadline = now + deadline
            self.awaitingHeadersSince = now
        }
    }

    private struct State {
        var perClient: [ClientKey: Int] = [:]
        var open: [ObjectIdentifier: Connection] = [:]
    }

    let maxPerClient: Int
    /// libmicrohttpd's limit on open connections in all.
    let maxConnections: Int
    let headerDeadline: Duration
    /// Bytes per second a body must at least average, which sets its deadline.
    let minimumUploadRate: Int
    /// Reverse proxies whose connections are counted by the client address they forward.
    let trustedProxies: Set<ClientKey>
    private let state = Mutex(State())
    private let sweeping = Atomic<Bool>(false)

    /// How long a connection past its client's limit may take to send the request it is refused.
    static let overLimitDeadline = Duration.seconds(2)
    /// What a client past its limit is told to wait before it tries again.
    static let retryAfterSeconds = 2

    init(
        maxPerClient: Int, maxConnections: Int = .max, headerDeadline: Duration, minimumUploadRate: Int,
        trustedProxies: Set<ClientKey> = []
    ) {
        self.maxPerClient = maxPerClient
        self.maxConnections = maxConnections
        self.headerDeadline = headerDeadline
        self.minimumUploadRate = max(1, minimumUploadRate)
        self.trustedProxies = trustedProxies
    }

    /// Whether a new connection from `client` may be accepted: within its limit, or within as many
    /// again to be answered 503. Counted only once opened, so a few worker threads accepting at once
    /// may pass the limit by a connection each. A trusted proxy is only held to the server's limit.
    func mayAccept(_ client: ClientKey) -> Bool {
        if trustedProxies.contains(client) { return true }
        return state.withLock { $0.perClient[client, default: 0] < 2 * maxPerClient }
    }

    func opened(client: ClientKey, socket: Int32, now: ContinuousClock.Instant = .now) -> Connection {
        state.withLock { state in
            let isProxy = trustedProxies.contains(client)
            let isOverLimit = !isProxy && state.perClient[client, default: 0] >= maxPerClient
            let connection = Connection(
                client: client, socket: socket, isFromTrustedProxy: isProxy, isOverLimit: isOverLimit, now: now,
                deadline: isOverLimit ? min(headerDeadline, Self.overLimitDeadline) : headerDeadline)
            if state.open.count >= maxConnections - maxConnections / 4 { Self.makeRoom(in: &state, now: now) }
            state.perClient[client, default: 0] += 1
            state.open[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// Cuts the oldest connection still waiting for its headers of the client holding the most
    /// connections (its slot frees once libmicrohttpd has closed it).
    private static func makeRoom(in state: inout State, now: ContinuousClock.Instant) {
        var waiting: [ClientKey: Connection] = [:]
        for connection in state.open.values where !connection.isCut {
            guard let since = connection.awaitingHeadersSince else { continue }
            if let oldest = waiting[connection.client], let oldestSince = oldest.awaitingHeadersSince, oldestSince <= since { continue }
            waiting[connection.client] = connection
        }
        let busiest = waiting.max { state.perClient[$0.key, default: 0] < state.perClient[$1.key, default: 0] }
        guard let victim = busiest?.value else { return }
        victim.isCut = true
        shutdown(victim.socket, Int32(SHUT_RDWR))
    }

    /// libmicrohttpd reports the connection closed (before it closes the socket, so a sweep
    /// holding the lock never shuts down a socket number already given to someone else).
    func closed(_ connection: Connection) {
        state.withLock {
            $0.open[ObjectIdentifier(connection)] = nil
            let left = $0.perClient[connection.client, default: 1] - 1
            $0.perClient[connection.client] = left > 0 ? left : nil
        }
    }

    /// A request from a trusted proxy names its client: the connection is counted for that client
    /// from now on. False when that client already holds its limit elsewhere (answer 503).
    func forwarded(_ connection: Connection, for client: ClientKey) -> Bool {
        state.withLock { state in
            if connection.client != client {
                let left = state.perClient[connection.client, default: 1] - 1
                state.perClient[connection.client] = left > 0 ? left : nil
                connection.client = client
                state.perClient[client, default: 0] += 1
            }
            return state.perClient[client, default: 0] <= maxPerClient
        }
    }

    /// Headers are in; the body of at most `bytes` must follow in a time that fits its size.
    func receivingBody(_ connection: Connection, upTo bytes: Int) {
        let seconds = Double(max(0, bytes)) / Double(minimumUploadRate)
        state.withLock { _ in
            connection.deadline = .now + headerDeadline + .seconds(seconds)
            connection.awaitingHeadersSince = nil
        }
    }

    /// The request is being answered: sending is limited by libmicrohttpd's idle timeout only.
    func answering(_ connection: Connection) {
        state.withLock { _ in
            connection.deadline = nil
            connection.awaitingHeadersSince = nil
        }
    }

    /// The answer is sent; the next request on this connection must arrive in time again.
    func awaitingRequest(_ connection: Connection) {
        let now = ContinuousClock.now
        state.withLock { _ in
            connection.deadline = now + headerDeadline
            connection.awaitingHeadersSince = now
        }
    }

    /// Shuts down the socket of every connection past its deadline; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            var cut = 0
            for connection in state.open.values where !connection.isCut {
                guard let deadline = connection.deadline, deadline < now else { continue }
                connection.isCut = true
                shutdown(connection.socket, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    /// Sweeps on a thread of its own until `stopSweeping`.
    func startSweeping() {
        sweeping.store(true, ordering: .sequentiallyConsistent)
        // Often enough that a deadline is kept to a fraction of itself, at most once a second.
        let interval = min(Duration.seconds(1), headerDeadline / 4)
        let micros = max(10_000, interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        let thread = Thread { [self] in
            while sweeping.load(ordering: .sequentiallyConsistent) {
                usleep(UInt32(micros))
                sweep()
            }
        }
        thread.name = "zaiko-deadlines"
        thread.start()
    }

    func stopSweeping() {
        sweeping.store(false, ordering: .sequentiallyConsistent)
    }
}
