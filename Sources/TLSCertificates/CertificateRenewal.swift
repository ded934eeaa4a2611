import Foundation
import Lifecycle
import Synchronization

/// Keeps the server certificate current while the server runs, as a service: every `pollInterval`
/// it looks at the machine's names and addresses, and calls `ensure` when they changed or a day (of
/// the injected clock) has passed since the last check, on a thread of its own (making a key is CPU
/// work, kept off Swift's cooperative pool). Renewing only rewrites the files; the HTTPS listener
/// picks them up.
public final class CertificateRenewal: Service {
    public typealias Names = @Sendable () -> (names: [String], addresses: [String])

    public var name: String { "certificate renewal" }

    let authority: LocalAuthority
    let currentNames: Names
    let now: @Sendable () -> Date
    let pollInterval: Duration
    let sleep: @Sendable (Duration) async throws -> Void
    let recheckInterval: TimeInterval
    let report: @Sendable (Result<CertificateStatus, CertificateError>) -> Void
    let state = Mutex<(lastNames: SubjectNames?, lastCheck: Date?, checks: Int)>((nil, nil, 0))

    /// How many times the renewal has called `ensure` (failed or not) since `ensureNow()`.
    public var checks: Int { state.withLock { $0.checks } }

    /// - Parameters:
    ///   - currentNames: the names and addresses the certificate should hold now (looked at each poll).
    ///   - now: the clock that decides expiry and the daily check.
    ///   - sleep: waits between polls (tests go off when they say).
    ///   - report: called on the renewal's thread after each check that issued something or failed.
    public init(
        authority: LocalAuthority, currentNames: @escaping Names, now: @escaping @Sendable () -> Date = { Date() },
        pollInterval: Duration = .seconds(60), sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        recheckInterval: TimeInterval = 86_400,
        report: @escaping @Sendable (Result<CertificateStatus, CertificateError>) -> Void
    ) {
        self.authority = authority
        self.currentNames = currentNames
        self.now = now
        self.pollInterval = pollInterval
        self.sleep = sleep
        self.recheckInterval = recheckInterval
        self.report = report
    }

    /// Ensures the certificates once, here, before the server listens (a failure stops the start
    /// with its sentence); `run()` then keeps them current.
    @discardableResult
    public func ensureNow() throws -> CertificateStatus {
        let wanted = currentNames()
        let status = try authority.ensure(names: wanted.names, addresses: wanted.addresses, now: now())
        let first = now()
        state.withLock { state in
            state.lastNames = status.subjectNames
            state.lastCheck = first
        }
        return status
    }

    /// Looks every `pollInterval` until the task is cancelled; a check in progress finishes first.
    public func run() async {
        while (try? await sleep(pollInterval)) != nil {
            await onOwnThread(named: "zaiko.certificates") { [self] in checkOnce() }
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
