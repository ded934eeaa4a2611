import Dispatch

/// The one place a thread waits for async work, and why: handlers are synchronous (SQLite is), and
/// run on the answering threads (`AnswerQueue`), Zaiko's own threads outside Swift's cooperative
/// pool. A handler that needs async work (an outbound request, the push test's wait for the engine)
/// runs it as a task and blocks its answering thread until the task ends; the answering thread is
/// not one of the pool's, so the task it waits for can always run. The work's own deadlines bound
/// the wait. Never call it from async code (it would hold one of the pool's threads).
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
