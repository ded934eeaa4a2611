import Dispatch

/// A task executor with a serial queue of its own: a task started with it as its preference
/// (`Task(executorPreference:)`) runs off Swift's cooperative pool, so the reminder engine under
/// test makes progress while other suites' CPU-heavy tests hold the pool's few threads.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Only `queue` is stored; it is thread-safe.
    private let queue: DispatchQueue

    public init(_ label: String = "zaiko.test.executor") { queue = DispatchQueue(label: label) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
