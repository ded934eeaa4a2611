import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Inventory

/// Writes after the database file was deleted or replaced under the running server are refused,
/// and a stop saves what the open database holds beside it (issue 22, item 11).
@Suite("The database file under a running server")
struct DatabaseFileGuardTests {
    /// A clock for the file check that moves only when told to.
    final class Instants: Sendable {
        let current = Mutex(ContinuousClock.now)
        func advance(_ duration: Duration) { current.withLock { $0 += duration } }
        var check: FileCheck { FileCheck(interval: .seconds(1)) { [self] in current.withLock { $0 } } }
    }

    func household(_ fixture: Fixture, _ name: String) throws {
        _ = try fixture.accounts.createHousehold(name: name)
    }

    func households(_ url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: "SELECT name FROM household ORDER BY id") }
    }

    func replace(_ file: URL, in folder: TemporaryFolder) throws {
        let copy = folder.appending("copy.sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        // As `mv copy zaiko.sqlite` does: renamed over it.
        #expect(rename(copy.path, file.path) == 0)
    }

    @Test(arguments: [false, true])
    func aWriteAfterTheFileIsDeletedOrReplacedIsRefused(replaced: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let instants = Instants()
        let database = try AppDatabase.open(at: folder.databaseURL, fileCheck: instants.check)
        let fixture = try Fixture(database: database)
        try household(fixture, "Acknowledged")
        if replaced {
            try replace(folder.databaseURL, in: folder)
        } else {
            try FileManager.default.removeItem(at: folder.databaseURL)
        }
        instants.advance(.seconds(2))
        #expect(throws: StorageFailure.databaseFileChanged) { try household(fixture, "Refused") }
        #expect(throws: StorageFailure.databaseFileChanged) {
            try database.writer.writeWithoutTransaction { db in try db.execute(sql: "UPDATE household SET name = 'Autocommit'") }
        }
        // Nothing of the refused writes is in the open database either.
        let names = try database.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM household ORDER BY id") }
        #expect(!names.contains("Refused") && !names.contains("Autocommit"))
        #expect(database.fileChange() == (replaced ? .replaced : .gone))
    }

    @Test func aCheckThatFoundTheFileStandsForASecond() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let instants = Instants()
        let database = try AppDatabase.open(at: folder.databaseURL, fileCheck: instants.check)
        let fixture = try Fixture(database: database)
        try household(fixture, "Checked")
        try FileManager.default.removeItem(at: folder.databaseURL)
        instants.advance(.milliseconds(500))
        // Within the second the earlier check stands (no stat per write)...
        try household(fixture, "Within the second")
        instants.advance(.milliseconds(600))
        // ...and after it the change is seen, and never forgotten.
        #expect(throws: StorageFailure.databaseFileChanged) { try household(fixture, "After it") }
        #expect(throws: StorageFailure.databaseFileChanged) { try household(fixture, "Again") }
    }

    @Test(arguments: [false, true])
    func theRescueBesideTheFileHoldsEveryAcknowledgedWriteAndOpens(replaced: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let instants = Instants()
        let database = try AppDatabase.open(at: folder.databaseURL, fileCheck: instants.check)
        let fixture = try Fixture(database: database)
        try household(fixture, "Acknowledged")
        if replaced {
            try replace(folder.databaseURL, in: folder)
        } else {
            try FileManager.default.removeItem(at: folder.databaseURL)
        }
        let placed = replaced ? try Data(contentsOf: folder.databaseURL) : nil
        // Written in the moment before the check saw it: acknowledged, so it must not be lost.
        try household(fixture, "Just before the check")
        instants.advance(.seconds(2))
        #expect(throws: StorageFailure.databaseFileChanged) { try household(fixture, "Refused") }

        let rescue = try database.saveBeside()
        try database.close()
        #expect(rescue.deletingLastPathComponent().path == folder.url.path, "beside the database file")
        #expect(rescue.lastPathComponent.hasPrefix("zaiko.sqlite.rescued-"))
        let reopened = try AppDatabase.open(at: rescue)
        let names = try reopened.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM household ORDER BY id") }
        #expect(names.contains("Acknowledged") && names.contains("Just before the check"))
        #expect(!names.contains("Refused"))
        try reopened.close()
        // A file put in place by hand is left as it was.
        if let placed { #expect(try Data(contentsOf: folder.databaseURL) == placed) }
    }

    @Test func anUnchangedFileIsNotReportedAndWritesGoOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try AppDatabase.open(at: folder.databaseURL, fileCheck: FileCheck(interval: .zero))
        let fixture = try Fixture(database: database)
        for index in 0..<5 { try household(fixture, "Household \(index)") }
        #expect(database.fileChange() == nil)
        #expect(database.healthProblem() == nil)
        try database.close()
        #expect(try households(folder.databaseURL).filter { $0.hasPrefix("Household ") }.count == 5)
    }
}
