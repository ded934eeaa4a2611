import Lifecycle
import Synchronization

/// Runs `service` for the length of `body`, then stops it as its owner does (cancels its task) and
/// waits until it has returned. Returns what `body` returned; a failure of the service's is thrown
/// after `body`'s. The service's task runs on a thread of its own, as on an idle server: it starts
/// even while other suites' work (or `body`'s blocking waits) holds the cooperative pool.
@discardableResult
public func running<T: Sendable>(_ service: some Service, _ body: () async throws -> T) async throws -> T {
    let task = Task(executorPreference: ThreadExecutor("zaiko.test.\(service.name)")) { try await service.run() }
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    task.cancel()
    do { try await task.value } catch is CancellationError {}
    return try result.get()
}

/// A timer for a service's waits that only goes off when a test says: inject `sleep` where the
/// service sleeps (`Task.sleep(for:)` in production), then `fire()` ends the sleep in progress.
/// Never waits for real time.
public final class ManualTimer: Sendable {
    private struct State {
        var waiter: (sleep: Int, continuation: CheckedContinuation<Void, any Error>)?
        /// Sleeps begun, and how many of them have been fired or cancelled.
        var sleeps = 0
        var ended = 0
        var durations: [Duration] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Suspends until `fire()` (or until the task is cancelled: throws `CancellationError`).
    @Sendable public func sleep(for duration: Duration) async throws {
        let sleep = state.withLock { state -> Int in
            state.sleeps += 1
            state.durations.append(duration)
            return state.sleeps
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ended = state.withLock { state -> Bool in
                    if state.ended >= sleep { return true }
                    state.waiter = (sleep, continuation)
                    return false
                }
                if ended { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            end(sleep, with: .failure(CancellationError()))
        }
    }

    /// Ends the sleep in progress, if any; returns false when nothing was asleep.
    @discardableResult
    public func fire() -> Bool {
        let sleep = state.withLock { $0.waiter?.sleep }
        guard let sleep else { return false }
        end(sleep, with: .success(()))
        return true
    }

    /// How many sleeps have begun: one more than the fires a service has handled while it keeps sleeping.
    public var sleeps: Int { state.withLock { $0.sleeps } }
    /// True while a sleep is waiting for `fire()`.
    public var isAsleep: Bool { state.withLock { $0.waiter != nil } }
    /// How long each sleep was asked to last.
    public var durations: [Duration] { state.withLock { $0.durations } }

    private func end(_ sleep: Int, with result: Result<Void, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.ended = max(state.ended, sleep)
            guard let waiter = state.waiter, waiter.sleep == sleep else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(with: result)
    }
}
