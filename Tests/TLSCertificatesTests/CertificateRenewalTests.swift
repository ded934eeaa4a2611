import Foundation
import Synchronization
import TLSCertificates
import TestSupport
import Testing

/// The clock and the machine's addresses, as a test moves them.
final class Machine: Sendable {
    let state: Mutex<(now: Date, addresses: [String])>
    init(now: Date, addresses: [String]) { state = Mutex((now, addresses)) }
    var now: Date { state.withLock { $0.now } }
    func advance(_ interval: TimeInterval) { state.withLock { $0.now += interval } }
    func add(_ address: String) { state.withLock { $0.addresses.append(address) } }
}

@Suite("The renewal service")
struct CertificateRenewalTests {
    @Test func renewsWhenTheClockNearsExpiryAndWhenAnAddressAppears() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let machine = Machine(now: Date(timeIntervalSince1970: 1_795_000_000), addresses: addresses)
        let reports = Mutex<[CertificateStatus.Reason?]>([])
        let timer = ManualTimer()
        let renewal = CertificateRenewal(
            authority: local, currentNames: { (names, machine.state.withLock { $0.addresses }) }, now: { machine.now },
            sleep: timer.sleep
        ) { result in
            if case .success(let status) = result { reports.withLock { $0.append(status.issued) } }
        }
        let first = try renewal.ensureNow()
        #expect(first.madeAuthority)
        #expect(first.issued == .missing)
        let original = try Data(contentsOf: local.serverCertificateFile)

        /// One poll: the timer goes off, and the renewal has looked once it sleeps again.
        func poll() async throws {
            try await eventually("the renewal sleeps") { timer.isAsleep }
            let sleeps = timer.sleeps
            #expect(timer.fire())
            try await eventually("the renewal looked") { timer.sleeps == sleeps + 1 && timer.isAsleep }
        }
        try await running(renewal) {
            // Within the day nothing is checked; after it, a check keeps the certificate.
            try await poll()
            #expect(renewal.checks == 0)
            machine.advance(300 * day)
            try await poll()
            #expect(renewal.checks == 1)
            #expect(reports.withLock { $0.isEmpty })
            #expect(try Data(contentsOf: local.serverCertificateFile) == original)

            machine.advance(67 * day)
            try await poll()
            #expect(reports.withLock { $0 == [.expiring] })

            machine.add("10.0.0.7")
            try await poll()
            #expect(reports.withLock { $0 == [.expiring, .namesChanged] })
            #expect(try certificateText(local.serverCertificateFile).contains("IP Address:10.0.0.7"))
        }
        // Stopped: it sleeps no more and checks nothing.
        #expect(!timer.isAsleep)
        #expect(!timer.fire())
        #expect(timer.durations.allSatisfy { $0 == .seconds(60) })
        let checks = renewal.checks
        machine.add("10.0.0.8")
        #expect(renewal.checks == checks, "no checks after stop")
    }
}
