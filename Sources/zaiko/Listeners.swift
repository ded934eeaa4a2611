import Foundation
import HTTPServer
import Lifecycle
import Synchronization

/// The HTTP and HTTPS listeners as one service, the last the server starts and the first it stops:
/// `open` makes them listen (and announces them); at the stop both finish the requests in flight
/// side by side, so the stop ends within 10 s whichever of them is answering.
final class Listeners: Service {
    var name: String { "listeners" }

    /// Starts the listeners (HTTPS first: the HTTP port may redirect to it) and announces them; a
    /// problem is thrown as the sentence the start ends with.
    let open: @Sendable () throws -> [Server]
    private let given = Mutex<[String]>([])

    init(open: @escaping @Sendable () throws -> [Server]) { self.open = open }

    /// Time the requests being answered get at a stop, and then the answers still running: a stop
    /// (both listeners at once) ends within 10 s, as the README says.
    static let stopGrace = Duration.seconds(6)
    static let stopRunningLimit = Duration.seconds(2)

    func run() async throws {
        let servers = try open()
        await untilCancelled()
        print("Stopping: finishing requests in flight…")
        let abandoned = await withTaskGroup(of: [String].self) { group in
            for server in servers {
                // A listener's stop blocks while answers finish: on a thread of its own, not the pool's.
                group.addTask {
                    await onOwnThread(named: "zaiko.stop") { server.shutdown(grace: Self.stopGrace, runningLimit: Self.stopRunningLimit) }
                }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        given.withLock { $0 = abandoned }
    }

    /// The requests whose answers the stop gave up (still being answered when its time was up).
    var abandoned: [String] { given.withLock { $0 } }
}
