import CMicroHTTPD
import Synchronization

/// A response body written over time (Server-Sent Events): whoever holds the stream sends bytes
/// from any thread, and the server passes them on as they come. No thread waits for it: between
/// sends the connection is suspended in libmicrohttpd (taken out of its event loop, so it is not
/// timed out either) and a send resumes it.
///
/// A client that stops reading cannot make the server hold more than `maxPending` bytes for it:
/// past that the stream ends (the client reconnects and asks for what it missed). A client that
/// left is only noticed on the next send, when writing to its socket fails: whoever sends should
/// send something now and then (an event stream's heartbeat).
public final class ResponseStream: Sendable {
    private struct State {
        /// Bytes sent and not yet handed to libmicrohttpd, from `start` on.
        var pending: [UInt8] = []
        var start = 0
        var ended = false
        /// libmicrohttpd has let go of the stream: the connection is closed, or the server stopped.
        var closed = false
        /// The connection is parked until the next send or the end.
        var suspended = false
        /// Set when the server queues the stream as a connection's answer.
        var connection: Connection?

        var waiting: Int { pending.count - start }
    }

    /// libmicrohttpd's connection, which may be resumed from any thread.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let state = Mutex(State())
    /// Most bytes kept for a client that does not read them.
    public let maxPending: Int
    /// Told once, on the thread that saw it, when the stream is over for whatever reason (ended,
    /// the client left, the server stopped): its holder forgets it.
    private let onClose: @Sendable () -> Void

    public init(maxPending: Int = 256 * 1024, onClose: @escaping @Sendable () -> Void = {}) {
        self.maxPending = max(1, maxPending)
        self.onClose = onClose
    }

    /// Queues `bytes` for the client. False when the stream is over (ended, or its client gone),
    /// or when the client is too far behind: the stream then ends.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let (accepted, resume) = state.withLock { state -> (Bool, Connection?) in
            guard !state.ended, !state.closed else { return (false, nil) }
            if state.waiting + bytes.count > maxPending {
                state.ended = true
            } else {
                state.pending.append(contentsOf: bytes)
            }
            return (!state.ended, Self.wake(&state))
        }
        if let resume { MHD_resume_connection(resume.pointer) }
        return accepted
    }

    /// Ends the stream once what was sent has gone out.
    public func end() {
        let resume = state.withLock { state -> Connection? in
            guard !state.ended else { return nil }
            state.ended = true
            return Self.wake(&state)
        }
        if let resume { MHD_resume_connection(resume.pointer) }
    }

    /// Whether the stream is still open for sending.
    public var isOpen: Bool { state.withLock { !$0.ended && !$0.closed } }

    /// The suspended connection to resume (outside the lock), if any.
    private static func wake(_ state: inout State) -> Connection? {
        guard state.suspended, let connection = state.connection else { return nil }
        state.suspended = false
        return connection
    }

    // MARK: - Called by the server

    /// The stream becomes the answer on `connection`.
    func attach(to connection: OpaquePointer) {
        state.withLock { $0.connection = Connection(pointer: connection) }
    }

    /// libmicrohttpd asks for up to `max` bytes: what is waiting, or the end, or nothing yet (the
    /// connection is then suspended, under the lock, so a send cannot slip between the look and
    /// the suspension).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state in
            if state.waiting > 0 {
                let count = min(max, state.waiting)
                state.pending.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + state.start, byteCount: count)
                }
                state.start += count
                // What was handed over goes once it is half the buffer: the array stays within
                // twice what is waiting, however long the stream runs.
                if state.start * 2 >= state.pending.count {
                    state.pending.removeFirst(state.start)
                    state.start = 0
                }
                return count
            }
            if state.ended || state.closed { return Self.endOfStream }
            guard let connection = state.connection else { return Self.endOfStream }
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// libmicrohttpd is done with the stream: its connection is closed.
    func released() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            state.pending = []
            state.start = 0
            state.connection = nil
            state.suspended = false
            return !state.closed
        }
        if first { onClose() }
    }

    /// libmicrohttpd's `MHD_CONTENT_READER_END_OF_STREAM`, `(ssize_t) -1`.
    static let endOfStream = -1
}
