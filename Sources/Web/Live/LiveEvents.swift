import Foundation
import HTTPServer
import Inventory
import Synchronization

/// The open event streams (`GET /events`) and the one thread that feeds them: after a commit moves
/// a household's change feed, its streams get the changes they have not seen, as one event; every
/// `heartbeat` each stream gets a comment, which also finds clients that left and streams whose
/// session ended. No stream holds a thread in between (`ResponseStream`).
///
/// Streams are capped in all (`LiveEventLimits`), so pages keep the connections they need: a page
/// refused a stream works on without live updates. A member past their own cap gives up their
/// oldest stream, most likely a page already left (its client is only noticed gone at a send).
final class LiveEvents: Sendable {
    /// The server holds as many streams as it keeps room for.
    struct TooManyStreams: Error {}

    /// Who a stream is for: a member's household, and what they are signed in with (a page's
    /// session or an API token), which the stream ends with.
    struct Reader: Sendable {
        let household: HouseholdScope
        let memberId: Member.ID
        let credential: Credential

        init(_ member: SignedIn) {
            household = member.household
            memberId = member.memberId
            credential = .session(member.sessionId)
        }

        init(_ holder: TokenHolder) {
            household = holder.household
            memberId = holder.memberId
            credential = .token(holder.tokenId)
        }
    }

    private struct Subscriber {
        let stream: ResponseStream
        let reader: Reader
        /// Opened after every stream with a smaller number.
        let order: Int
        /// The last sequence this stream was sent (or told about at its start).
        var seen: Int64
    }

    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var opened = 0
        /// Households whose feed moved since the thread last looked.
        var moved: Set<Household.ID> = []
        /// Sessions and tokens ended since the thread last looked.
        var endedCredentials: Set<Credential> = []
    }

    let limits: LiveEventLimits
    private let feed: ChangeFeed
    private let accounts: Accounts
    private let state = Mutex(State())
    private let wake = Wake()
    private let started = Atomic<Bool>(false)

    init(feed: ChangeFeed, accounts: Accounts, limits: LiveEventLimits = LiveEventLimits()) {
        self.feed = feed
        self.accounts = accounts
        self.limits = limits
    }

    deinit { wake.signal() }

    var openStreams: Int { state.withLock { $0.subscribers.count } }

    /// At the first stream: listens to the feed and to ended sessions, and starts the thread, which
    /// holds the hub only while it works (it ends once the hub is gone).
    private func startOnce() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        feed.onCommit { [weak self] household, _ in self?.moved(household) }
        accounts.whenCredentialsEnd { [weak self] credentials in self?.ended(credentials) }
        let wake = self.wake
        let heartbeat = limits.heartbeat
        let thread = Thread { [weak self] in
            var nextHeartbeat = ContinuousClock.now + heartbeat
            while true {
                wake.wait(until: nextHeartbeat)
                guard let live = self else { return }
                live.work(beating: ContinuousClock.now >= nextHeartbeat)
                if ContinuousClock.now >= nextHeartbeat { nextHeartbeat = ContinuousClock.now + heartbeat }
            }
        }
        thread.name = "zaiko-live-events"
        thread.start()
    }

    /// A new stream for `reader` (a session's page or a token's tool), starting after `since` (the `Last-Event-ID` of a reconnect, or
    /// the sequence the page was rendered at), else from now.
    func open(for reader: Reader, since: Int64?) throws -> ResponseStream {
        startOnce()
        let latest = try feed.latestSequence(in: reader.household)
        // A number ahead of the feed (a database restored from an older copy) is told to reload.
        let start = since.map { max(0, $0) } ?? latest
        let stream = ResponseStream(maxPending: limits.maxPending) { [weak self] in self?.closed() }
        // A member at their limit gives up their oldest stream: a page left or a tab closed is
        // only noticed at its next send, and the newest stream is the one being looked at.
        let evicted = try state.withLock { state -> ResponseStream? in
            let held = state.subscribers.values.filter { $0.reader.memberId == reader.memberId }
            let oldest = held.count >= limits.perMember ? held.min(by: { $0.order < $1.order })?.stream : nil
            guard state.subscribers.count - (oldest == nil ? 0 : 1) < limits.total else { throw TooManyStreams() }
            if let oldest { state.subscribers[ObjectIdentifier(oldest)] = nil }
            state.opened += 1
            state.subscribers[ObjectIdentifier(stream)] = Subscriber(stream: stream, reader: reader, order: state.opened, seen: start)
            if start != latest { state.moved.insert(reader.household.householdId) }
            return oldest
        }
        evicted?.end()
        // The reconnect delay, and the sequence this stream starts from: the first thing a client
        // reads, so a reconnect names it even when nothing changes meanwhile.
        stream.send(LiveEventMessage.ready(start))
        if start != latest { wake.signal() }
        return stream
    }

    // MARK: - Told from other threads

    private func moved(_ household: Household.ID) {
        state.withLock { _ = $0.moved.insert(household) }
        wake.signal()
    }

    private func ended(_ credentials: [Credential]) {
        state.withLock { $0.endedCredentials.formUnion(credentials) }
        wake.signal()
    }

    /// A stream's connection is gone: its subscriber goes (found by the streams no longer open).
    private func closed() {
        state.withLock { state in state.subscribers = state.subscribers.filter { $0.value.stream.isOpen } }
    }

    // MARK: - The thread

    /// One round: the ended sessions' streams end, the moved households' streams get their
    /// changes, and with `beating` every stream its heartbeat.
    private func work(beating: Bool) {
        let (moved, endedCredentials) = state.withLock { state in
            defer {
                state.moved = []
                state.endedCredentials = []
            }
            return (state.moved, state.endedCredentials)
        }
        if !endedCredentials.isEmpty { end { endedCredentials.contains($0.reader.credential) } }
        for household in moved { deliver(to: household) }
        if beating { beat() }
    }

    /// Sends each stream of `household` what it has not seen: one `changes` event per stream
    /// (streams that saw the same sequence share one read), or `reload` when the feed no longer
    /// holds what it missed or more than a batch is missing.
    private func deliver(to household: Household.ID) {
        let subscribers = state.withLock { $0.subscribers.values.filter { $0.reader.household.householdId == household } }
        guard let scope = subscribers.first?.reader.household else { return }
        for (seen, group) in Dictionary(grouping: subscribers, by: \.seen) {
            // A read that fails (the database unavailable) is tried again at the next commit.
            guard let read = try? feed.changes(since: seen, in: scope, limit: limits.batch) else { continue }
            let (message, latest) = LiveEventMessage.catchingUp(read)
            guard latest != seen else { continue }
            for subscriber in group { subscriber.stream.send(message) }
            state.withLock { state in
                for subscriber in group { state.subscribers[ObjectIdentifier(subscriber.stream)]?.seen = latest }
            }
        }
    }

    /// A comment to every stream; the streams of sessions no longer open end.
    private func beat() {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        if let held = try? accounts.held(among: Array(Set(subscribers.map(\.reader.credential)))) {
            end { !held.contains($0.reader.credential) }
        }
        for subscriber in subscribers where subscriber.stream.isOpen { subscriber.stream.send(LiveEventMessage.heartbeat) }
    }

    private func end(where shouldEnd: (Subscriber) -> Bool) {
        let ending = state.withLock { state in
            let ending = state.subscribers.values.filter(shouldEnd)
            for subscriber in ending { state.subscribers[ObjectIdentifier(subscriber.stream)] = nil }
            return ending
        }
        for subscriber in ending {
            subscriber.stream.send(LiveEventMessage.signedOut)
            subscriber.stream.end()
        }
    }
}

/// Wakes the hub's thread: after a commit, an ended session, the hub's end, or at the next heartbeat.
private final class Wake: @unchecked Sendable {
    // `pending` is guarded by `condition`'s lock, so a signal between two waits is not lost.
    private let condition = NSCondition()
    private var pending = false

    func signal() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    func wait(until deadline: ContinuousClock.Instant) {
        condition.lock()
        while !pending, ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            _ = condition.wait(until: Date().addingTimeInterval(Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18))
        }
        pending = false
        condition.unlock()
    }
}

/// How many event streams the server keeps open, and how it keeps them.
public struct LiveEventLimits: Sendable {
    /// Streams one member may hold (each tab holds one where the browser cannot share it); a new
    /// one past it ends the member's oldest.
    public var perMember = 8
    /// Streams in all: `zaiko serve` leaves half its connections to pages.
    public var total = 256
    /// Shorter than any idle timeout between the browser and the server (the server's is 30 s).
    public var heartbeat = Duration.seconds(15)
    /// Changes sent in one event at most; a stream further behind is told to reload.
    public var batch = ChangeFeed.maximumLimit
    /// Bytes kept for a client that does not read (see `ResponseStream.maxPending`).
    public var maxPending = 256 * 1024

    public init() {}
}
