import Foundation

/// Threads that answer requests in the order they arrived, whichever libmicrohttpd thread read them.
/// Each libmicrohttpd thread keeps the connections it accepted, and they are rarely spread evenly:
/// answering on the reading thread made requests on the busier one wait longer (a p99 half again the
/// median under load). One queue for all keeps every request's wait the same.
final class AnswerQueue: @unchecked Sendable {
    /// One request's work; `drop` instead of `run` when the queue stops before its turn.
    struct Job {
        let run: () -> Void
        let drop: () -> Void
    }

    // Everything below is guarded by `condition`'s lock.
    private let condition = NSCondition()
    /// Oldest first; at most one per open connection, so taking from the front stays cheap.
    private var waiting: [Job] = []
    private var stopped = false
    private var threadsRunning = 0

    init(threads: Int, name: String) {
        let count = max(1, threads)
        threadsRunning = count
        for index in 0..<count {
            let thread = Thread { [self] in
                // Named from inside: a Linux thread otherwise keeps its creator's name in `top -H`.
                Thread.current.name = "\(name)-\(index)"
                work()
            }
            thread.start()
        }
    }

    /// Queues a job; false (and nothing queued) once stopped.
    func enqueue(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return false }
        waiting.append(job)
        condition.signal()
        return true
    }

    /// Drops the jobs still waiting (each told by `drop`), lets the running ones finish and
    /// returns once every thread has ended.
    func stop() {
        condition.lock()
        stopped = true
        let dropped = waiting
        waiting = []
        condition.broadcast()
        condition.unlock()
        for job in dropped { job.drop() }
        condition.lock()
        while threadsRunning > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        while let job = next() { job.run() }
        condition.lock()
        threadsRunning -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !stopped { condition.wait() }
        return waiting.isEmpty ? nil : waiting.removeFirst()
    }
}
