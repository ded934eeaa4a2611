import Foundation
import Synchronization
import Testing

/// Waits until `condition` holds, checking often: for work that runs on its own task or thread.
/// The limit only gives up on a broken test; it asserts nothing about speed: under `swift test`
/// with every suite in parallel on two cores, a passing check may come many seconds late. A
/// waiting test sleeps between checks and its next check queues behind every other test's work
/// on the cooperative pool's two threads (the whole Swift suite is about 130 s of it; a 90 s limit
/// gave up on services that had started), so the limit is longer than the whole suite takes.
/// Giving up records the issue and throws, so the test stops there: what follows a wait reads
/// what it waited for (`sent[0]`), and reading it anyway would crash the whole test process.
public func eventually(
    _ what: String = "", timeout: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    // Checks once more after the deadline: a test starved of the cooperative pool past its
    // deadline still sees what happened meanwhile.
    while true {
        if try condition() { return }
        if ContinuousClock.now >= deadline { break }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("gave up waiting: \(what)", sourceLocation: sourceLocation)
    throw GaveUpWaiting(what: what)
}

/// What `eventually` throws when its condition never held.
public struct GaveUpWaiting: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "gave up waiting: \(what)" }
}

/// `eventually` for synchronous tests: blocks the calling thread between checks, and likewise
/// records the issue and throws when the condition never held (the test stops there).
public func waitUntil(
    _ what: String = "", timeout: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline {
            Issue.record("gave up waiting: \(what)", sourceLocation: sourceLocation)
            throw GaveUpWaiting(what: what)
        }
        usleep(10_000)
    }
}

/// Runs CPU-heavy or blocking work (decoding photos, hashing) on a thread of its own and waits for
/// it without holding one of Swift's cooperative threads: on a two-core machine there are two, and
/// tests that wait for an engine's task would otherwise wait behind the decoding.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs `work` `count` times at once on threads of their own (not the cooperative pool) and
/// returns every result: for tests that check CPU-heavy code is safe to call concurrently.
public func concurrently<T: Sendable>(_ count: Int, _ work: @escaping @Sendable () -> T) async throws -> [T] {
    try await offThePool {
        let results = Mutex([T]())
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            let result = work()
            results.withLock { $0.append(result) }
        }
        return results.withLock { $0 }
    }
}
