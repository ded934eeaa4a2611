import Foundation
import Synchronization

/// SIGTERM and SIGINT set a flag that a polling loop watches (sigwait does not work in Swift 6).
enum ShutdownSignal {
    static let received = Atomic<Bool>(false)

    static func install() {
        signal(SIGTERM, onSignal)
        signal(SIGINT, onSignal)
    }

    /// Returns once a signal has come, or when the task is cancelled (the services ended first).
    @Sendable static func wait() async {
        while !received.load(ordering: .acquiring), !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}

private let onSignal: @convention(c) (Int32) -> Void = { _ in
    ShutdownSignal.received.store(true, ordering: .releasing)
}
