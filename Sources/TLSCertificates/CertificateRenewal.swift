import Foundation
import Synchronization

/// Keeps the server certificate current while the server runs, on a thread of its own: every
/// `pollInterval` it looks at the machine's names and addresses, and calls `ensure` when they
/// changed or a day (of the injected clock) has passed since the last check. Renewing only
/// rewrites the files; the HTTPS listener picks them up.
public final class CertificateRenewal: Sendable {
    public typealias Names = @Sendable () -> (names: [String], addresses: [String])

    let authority: LocalAuthority
    let currentNames: Names
    let now: @Sendable () -> Date
    let pollInterval: Duration
    let recheckInterval: TimeInterval
    let report: @Sendable (Result<CertificateStatus, CertificateError>) -> Void
    let stopped = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let state = Mutex<(started: Bool, lastNames: SubjectNames?, lastCheck: Date?, checks: Int)>((false, nil, nil, 0))

    /// How many times the thread has called `ensure` (failed or not).
    public var checks: Int { state.withLock { $0.checks } }

    /// - Parameters:
    ///   - currentNames: the names and addresses the certificate should hold now (looked at each poll).
    ///   - now: the clock that decides expiry and the daily check.
    ///   - report: called on the renewal thread after each check that issued something or failed.
    public init(
        authority: LocalAuthority, currentNames: @escaping Names, now: @escaping @Sendable () -> Date = { Date() },
        pollInterval: Duration = .seconds(60), recheckInterval: TimeInterval = 86_400,
        report: @escaping @Sendable (Result<CertificateStatus, CertificateError>) -> Void
    ) {
        self.authority = authority
        self.currentNames = currentNames
        self.now = now
        self.pollInterval = pollInterval
        self.recheckInterval = recheckInterval
        self.report = report
    }

    /// Ensures the certificates once, here (a failure stops the start with its sentence), then
    /// starts the thread that keeps them current.
    @discardableResult
    public func start() throws -> CertificateStatus {
        let wanted = currentNames()
        let status = try authority.ensure(names: wanted.names, addresses: wanted.addresses, now: now())
        let first = now()
        let begin = state.withLock { state -> Bool in
            defer { state.started = true }
            state.lastNames = status.subjectNames
            state.lastCheck = first
            return !state.started
        }
        if begin {
            let thread = Thread { [self] in
                run()
                finished.signal()
            }
            thread.name = "zaiko.certificates"
            thread.start()
        }
        return status
    }

    /// Stops the thread and waits for a check in progress to finish. Calling it again does nothing.
    public func stop() {
        let running = state.withLock { state in
            defer { state.started = false }
            return state.started
        }
        guard running else { return }
        stopped.signal()
        finished.wait()
    }

    func run() {
        let nanoseconds = Int(pollInterval.components.seconds) * 1_000_000_000 + Int(pollInterval.components.attoseconds / 1_000_000_000)
        while stopped.wait(timeout: .now() + .nanoseconds(max(1, nanoseconds))) == .timedOut {
            checkOnce()
        }
    }

    /// One look: ensure when the names changed or the day is up. Errors are reported.
    func checkOnce() {
        let wanted = currentNames()
        let moment = now()
        guard let names = try? SubjectNames(names: wanted.names, addresses: wanted.addresses) else {
            report(.failure(CertificateError("The machine's addresses \(wanted.addresses) include one that is not an IP address.")))
            return
        }
        // A check that fails is tried again on the next change or the next day, not every poll:
        // the 30 days of margin leave room, and the log is not flooded.
        let due = state.withLock { state in
            let due = state.lastNames != names || state.lastCheck.map { moment.timeIntervalSince($0) >= recheckInterval } ?? true
            if due {
                state.lastNames = names
                state.lastCheck = moment
            }
            return due
        }
        guard due else { return }
        defer { state.withLock { $0.checks += 1 } }
        do {
            let status = try authority.ensure(names: wanted.names, addresses: wanted.addresses, now: moment)
            if status.issued != nil || status.madeAuthority { report(.success(status)) }
        } catch let error as CertificateError {
            report(.failure(error))
        } catch {
            report(.failure(CertificateError("The certificates could not be checked: \(error).")))
        }
    }
}
