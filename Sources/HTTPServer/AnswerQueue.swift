import Foundation

/// Threads that answer requests in the order they arrived, whichever libmicrohttpd thread read them.
/// Each libmicrohttpd thread keeps the connections it accepted, and they are rarely spread evenly:
/// answering on the reading thread made requests on the busier one wait longer (a p99 half again the
/// median under load). One queue for all keeps every request's wait the same.
final class AnswerQueue: @unchecked Sendable {
    /// One request's work. `drop` gives the request up: instead of `run` when the queue stops before
    /// its turn, or while `run` is still going when a stop's limit has passed (the job must then
    /// make sure only one of the two finishes the request).
    struct Job {
        /// What the request was ("POST /recipes/import"), for the log of a stop that gave it up.
        let label: String
        let run: () -> Void
        let drop: () -> Void
    }

    // Everything below is guarded by `condition`'s lock.
    private let condition = NSCondition()
    /// Oldest first; at most one per open connection, so taking from the front stays cheap.
    private var waiting: [Job] = []
    /// The job each thread is running, by thread index.
    private var running: [Int: Job] = [:]
    private var stopped = false
    private var threadsRunning = 0

    init(threads: Int, name: String) {
        let count = max(1, threads)
        threadsRunning = count
        for index in 0..<count {
            let thread = Thread { [self] in
                // Named from inside: a Linux thread otherwise keeps its creator's name in `top -H`.
                Thread.current.name = "\(name)-\(index)"
                work(index)
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

    /// Drops the jobs still waiting (each told by `drop`) and lets the running ones finish for at
    /// most `limit`. Returns the labels of the jobs still running then, which are dropped too: their
    /// threads are left to end whenever they do (a handler that never returns cannot hold up a stop).
    @discardableResult
    func stop(upTo limit: Duration) -> [String] {
        condition.lock()
        stopped = true
        let dropped = waiting
        waiting = []
        condition.broadcast()
        condition.unlock()
        for job in dropped { job.drop() }
        let deadline = Date().addingTimeInterval(Self.seconds(limit))
        condition.lock()
        while threadsRunning > 0, condition.wait(until: deadline) {}
        let abandoned = running.sorted { $0.key < $1.key }.map(\.value)
        condition.unlock()
        for job in abandoned { job.drop() }
        return abandoned.map(\.label)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func work(_ index: Int) {
        while let job = next(index) {
            job.run()
            condition.lock()
            running[index] = nil
            condition.unlock()
        }
        condition.lock()
        threadsRunning -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func next(_ index: Int) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !stopped { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        let job = waiting.removeFirst()
        running[index] = job
        return job
    }
}
