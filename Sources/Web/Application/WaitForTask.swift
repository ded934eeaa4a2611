import Dispatch
import Synchronization

/// The one place a thread waits for async work, and why: handlers are synchronous (SQLite is), and
/// run on the answering threads (`AnswerQueue`), Zaiko's own threads outside Swift's cooperative
/// pool. A handler that needs async work (an outbound request, the push test's wait for the engine)
/// runs it as a task whose jobs the waiting answering thread runs itself, until the task ends. An
/// outbound request then needs no thread of the pool, which whatever else runs there (the engine,
/// a test process's other tests) may hold for longer than the request's deadline. What the work
/// hands to others still runs where they run it: a `Task.sleep`'s wake-up and a GRDB observation's
/// values (the push test's wait) come through the pool. The work's own deadlines bound the wait.
/// Never call it from async code (it would hold one of the pool's threads).
func waitForTask<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let executor = WaitingThreadExecutor()
    let result = Mutex<T?>(nil)
    Task(executorPreference: executor) {
        let value = await work()
        result.withLock { $0 = value }
        executor.finish()
    }
    executor.runJobsUntilFinished()
    return result.withLock { $0 }!
}

/// A task executor whose jobs one thread runs: the thread that waits for the task. Jobs come from
/// any thread (a continuation resumed by an outbound request's callback); those that arrive after
/// the task ended (none should) go to the global executor rather than being lost.
private final class WaitingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private enum State {
        case running(jobs: [UnownedJob], finished: Bool)
        case closed
    }

    private let state = Mutex(State.running(jobs: [], finished: false))
    /// Signalled once per job enqueued and once when the task finishes.
    private let wake = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = state.withLock { state -> Bool in
            guard case .running(var jobs, let finished) = state else { return false }
            jobs.append(job)
            state = .running(jobs: jobs, finished: finished)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    func finish() {
        state.withLock { state in
            if case .running(let jobs, _) = state { state = .running(jobs: jobs, finished: true) }
        }
        wake.signal()
    }

    /// Runs the jobs in the order they came until the task has finished and none is left.
    func runJobsUntilFinished() {
        while true {
            wake.wait()
            switch takeNext() {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .none: continue
            case .finished: return
            }
        }
    }

    private enum Next { case job(UnownedJob), none, finished }

    private func takeNext() -> Next {
        state.withLock { state in
            guard case .running(var jobs, let finished) = state else { return .finished }
            guard !jobs.isEmpty else {
                if finished { state = .closed }
                return finished ? .finished : .none
            }
            let job = jobs.removeFirst()
            state = .running(jobs: jobs, finished: finished)
            return .job(job)
        }
    }
}
