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
final class ConnectionGuard: Sendable {
    /// One open connection; its mutable fields are only touched under `ConnectionGuard.state`.
    final class Connection: @unchecked Sendable {
        let client: ClientKey
        let socket: Int32
        /// Reading must be over by then; nil while an answer is being sent.
        var deadline: ContinuousClock.Instant?
        var isCut = false
        /// Set by libmicrohttpd's thread for this connection when the request line had more query
        /// parameters than allowed (they were dropped unparsed); read by the same thread.
        var queryTooLong = false
        /// The client's address as text, written by the first request's thread and read by the
        /// threads of later requests (libmicrohttpd serves a connection on one thread at a time).
        var address: String?

        init(client: ClientKey, socket: Int32, deadline: ContinuousClock.Instant) {
            self.client = client
            self.socket = socket
            self.deadline = deadline
        }
    }

    private struct State {
        var perClient: [ClientKey: Int] = [:]
        var open: [ObjectIdentifier: Connection] = [:]
    }

    let maxPerClient: Int
    let headerDeadline: Duration
    /// Bytes per second a body must at least average, which sets its deadline.
    let minimumUploadRate: Int
    private let state = Mutex(State())
    private let sweeping = Atomic<Bool>(false)

    init(maxPerClient: Int, headerDeadline: Duration, minimumUploadRate: Int) {
        self.maxPerClient = maxPerClient
        self.headerDeadline = headerDeadline
        self.minimumUploadRate = max(1, minimumUploadRate)
    }

    /// Whether a new connection from `client` may be accepted. Counted only once opened, so a few
    /// worker threads accepting at once may pass the limit by a connection each.
    func mayAccept(_ client: ClientKey) -> Bool {
        state.withLock { $0.perClient[client, default: 0] < maxPerClient }
    }

    func opened(client: ClientKey, socket: Int32) -> Connection {
        let connection = Connection(client: client, socket: socket, deadline: .now + headerDeadline)
        state.withLock {
            $0.perClient[client, default: 0] += 1
            $0.open[ObjectIdentifier(connection)] = connection
        }
        return connection
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

    /// Headers are in; the body of at most `bytes` must follow in a time that fits its size.
    func receivingBody(_ connection: Connection, upTo bytes: Int) {
        let seconds = Double(max(0, bytes)) / Double(minimumUploadRate)
        state.withLock { _ in connection.deadline = .now + headerDeadline + .seconds(seconds) }
    }

    /// The request is being answered: sending is limited by libmicrohttpd's idle timeout only.
    func answering(_ connection: Connection) {
        state.withLock { _ in connection.deadline = nil }
    }

    /// The answer is sent; the next request on this connection must arrive in time again.
    func awaitingRequest(_ connection: Connection) {
        state.withLock { _ in connection.deadline = .now + headerDeadline }
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
