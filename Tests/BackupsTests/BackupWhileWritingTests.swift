import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Backups
@testable import Inventory

@Suite("Backup while the server writes")
struct BackupWhileWritingTests {
    /// Four writer threads each commit pairs of items, transaction by transaction: a snapshot that
    /// caught a transaction half-way would hold an odd count, and one that is not a single instant
    /// could still only show each writer's committed prefix (checked: pairs 0..<n, no gaps).
    @Test("four writers register items during the backup; the archive holds exactly a committed state")
    func fourWriters() throws {
        let server = try ServerData()
        defer { server.close() }
        let owner = try server.fixture.owner
        let folderId = try server.fixture.firstFolder(.stock)
        let items = server.fixture.items
        let state = WriterState()
        for writer in 0..<4 {
            let thread = Thread {
                var pair = 0
                while !state.stop.load(ordering: .relaxed) {
                    var first = ItemInput(), second = ItemInput()
                    first.name = "w\(writer)-\(pair)-a"
                    second.name = "w\(writer)-\(pair)-b"
                    do {
                        _ = try items.register([first, second], into: folderId, in: owner.household, by: owner.memberId, timeZone: .gmt)
                    } catch {
                        state.failures.withLock { $0.append("\(error)") }
                        break
                    }
                    pair += 1
                    let done = pair
                    state.committed.withLock { $0[writer] = done }
                }
                state.finished.add(1, ordering: .relaxed)
            }
            thread.start()
        }
        try waitUntil("each writer committed a few pairs") { state.committed.withLock { $0.allSatisfy { $0 >= 5 } } }
        let (archive, manifest) = try server.backup()
        let atBackupEnd = state.committed.withLock { $0 }
        try waitUntil("the writers went on after the backup") { state.committed.withLock { zip($0, atBackupEnd).allSatisfy { $0 > $1 } } }
        state.stop.store(true, ordering: .relaxed)
        try waitUntil("the writers stopped") { state.finished.load(ordering: .relaxed) == 4 }
        #expect(state.failures.withLock { $0 }.isEmpty)

        let target = server.folder.appending("restored")
        _ = try BackupRestore.restore(archive: archive, into: target, replace: false)
        let queue = try DatabaseQueue(path: target.appendingPathComponent("zaiko.sqlite").path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        let names = Set(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") })
        #expect(names.count == manifest.rowCounts["item"])
        var total = 0
        for writer in 0..<4 {
            let mine = names.filter { $0.hasPrefix("w\(writer)-") }
            #expect(mine.count % 2 == 0, "writer \(writer): a half transaction")
            let pairs = mine.count / 2
            let expected = Set((0..<pairs).flatMap { ["w\(writer)-\($0)-a", "w\(writer)-\($0)-b"] })
            #expect(mine == expected, "writer \(writer): not a committed prefix")
            #expect(pairs >= 5)
            total += mine.count
        }
        #expect(total == names.count)
        let live = try server.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        #expect(live > total, "the writers committed after the snapshot")
    }
}

/// What the writer threads share with the test (atomics and locks live in a class: threads capture it).
final class WriterState: Sendable {
    let stop = Atomic<Bool>(false)
    let committed = Mutex<[Int]>([0, 0, 0, 0])
    let finished = Atomic<Int>(0)
    let failures = Mutex<[String]>([])
}
