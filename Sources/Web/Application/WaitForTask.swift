import Dispatch

/// Handlers run on a libmicrohttpd worker thread, outside Swift's cooperative pool: async work
/// (an outbound request) runs as a task while this thread waits for it. The work's own deadlines
/// bound the wait.
func waitForTask<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = TaskResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await work()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// One value handed from the task to the waiting thread: written before the semaphore is
/// signalled, read after the wait (the semaphore orders the two).
private final class TaskResult<T: Sendable>: @unchecked Sendable {
    var value: T?
}
