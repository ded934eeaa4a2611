import Foundation
import Lifecycle

/// Removes, every hour while the server runs, the photos nothing uses any more and the files
/// without a row (`PhotoStore.collectGarbage`): a service. The files go on a thread of their own,
/// off Swift's cooperative pool.
public struct PhotoCleaner: Service {
    public var name: String { "photo cleaner" }

    let store: PhotoStore
    let interval: Duration
    let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameter sleep: waits between passes (tests go off when they say).
    public init(
        store: PhotoStore, interval: Duration = .seconds(3600),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.store = store
        self.interval = interval
        self.sleep = sleep
    }

    /// A pass every `interval` until the task is cancelled; a pass in progress finishes first.
    public func run() async {
        while (try? await sleep(interval)) != nil {
            _ = await onOwnThread(named: "zaiko.photos") { [store] in try? store.collectGarbage() }
        }
    }
}
