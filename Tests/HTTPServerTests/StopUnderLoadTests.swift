import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Servers stopped while libmicrohttpd's threads are busy with their connections, as in the test
/// run, where many servers start and stop side by side in one process.
@Suite("Stopping servers under load")
struct StopUnderLoadTests {
    /// Each round starts servers and keeps both libmicrohttpd threads of each busy with keep-alive
    /// requests; once they answer, the previous round's servers are stopped all at once, under
    /// their own load. When a stop took the listening socket out of the threads' epoll sets
    /// (`MHD_quiesce_daemon`), a thread that woke for a request at that moment could take it out
    /// first, and libmicrohttpd aborted the whole process.
    @Test func serversStopUnderLoadWhileOthersStartAndAnswer() throws {
        var previous: [(server: TestServer, load: Load)] = []
        for _ in 0..<8 {
            let round = try (0..<3).map { _ in
                let server = try TestServer()
                return (server: server, load: try Load(on: server, clients: 4))
            }
            for (_, load) in round { try waitUntil(upTo: 60) { load.everyClientAnswered } }
            let stops = previous.map { stopInBackground($0.server.server, grace: .zero) }
            try waitUntil(upTo: 60) { stops.allSatisfy(\.isSet) }
            // The stop closed every connection: each client's next request failed.
            for (_, load) in previous { try waitUntil(upTo: 60) { load.clientsLeft } }
            previous = round
        }
    }
}

/// Clients sending requests over keep-alive connections of their own, each on a thread of its own,
/// until the server closes the connection.
private final class Load: Sendable {
    private let clients: Int
    private let answeredClients = Atomic<Int>(0)
    private let runningClients = Atomic<Int>(0)

    /// Every client has had an answer.
    var everyClientAnswered: Bool { answeredClients.load(ordering: .acquiring) == clients }
    /// Every client's connection was closed by the server.
    var clientsLeft: Bool { runningClients.load(ordering: .acquiring) == 0 }

    init(on server: TestServer, clients: Int) throws {
        self.clients = clients
        for _ in 0..<clients {
            let connection = Connection(client: try server.client())
            runningClients.add(1, ordering: .releasing)
            Thread.detachNewThread { [self] in
                var answered = false
                while let reply = try? connection.client.request("GET", "/static/css/app.css"), reply.status == 200 {
                    if !answered { answeredClients.add(1, ordering: .releasing) }
                    answered = true
                }
                runningClients.subtract(1, ordering: .releasing)
            }
        }
    }

    /// One client, used by its own thread only.
    private struct Connection: @unchecked Sendable {
        let client: RawHTTPClient
    }
}
