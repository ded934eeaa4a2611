import Foundation
import Synchronization

/// Runs blocking work (an archive being written, a key being made, a listener waiting for its
/// answers in flight) on a thread of its own and waits for it without holding one of Swift's
/// cooperative threads: there are as many as cores (two), and one held there holds up every task of
/// the server behind it. The work runs to its end even if the waiting task is cancelled.
public func onOwnThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}

/// `onOwnThread`, waiting at most `limit`: nil when the work has not ended by then (it goes on, on
/// its thread, and its result is dropped).
public func onOwnThread<T: Sendable>(named name: String, within limit: Duration, _ work: @escaping @Sendable () -> T) async -> T? {
    let once = OnceContinuation<T?>()
    return await withCheckedContinuation { continuation in
        once.set(continuation)
        let thread = Thread { once.resume(returning: work()) }
        thread.name = name
        thread.start()
        Task {
            try? await Task.sleep(for: limit)
            once.resume(returning: nil)
        }
    }
}

/// A continuation that the first of several racers resumes; the others find it taken.
private final class OnceContinuation<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

    func set(_ waiting: CheckedContinuation<T, Never>) { continuation.withLock { $0 = waiting } }

    func resume(returning value: T) {
        continuation.withLock { taken in
            defer { taken = nil }
            return taken
        }?.resume(returning: value)
    }
}
