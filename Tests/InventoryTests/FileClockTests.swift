import Foundation
import Inventory
import TestSupport
import Testing

/// The browser tests' clock (ZAIKO_TEST_CLOCK): the instant in a file, run on from the file's modification time.
@Suite struct FileClockTests {
    /// Writes `text` to the clock file and dates it `modified`, as if written then.
    func write(_ text: String, to file: URL, modified: Date) throws {
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
    }

    @Test func readsTheInstantAndRunsOnFromWhenItWasWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.appending("clock")
        let written = Date().addingTimeInterval(-3600)
        try write("2026-11-26T03:00:00Z\n", to: file, modified: written)
        let clock = try FileClock(file: file)
        let start = try #require(Timestamp.date(from: "2026-11-26T03:00:00Z"))
        // An hour has passed since the file was written: the clock is an hour past its instant.
        let elapsed = clock.now.timeIntervalSince(start)
        #expect(elapsed >= 3600 && elapsed < 3600 + 600)

        // A new instant written is read at once.
        try write("2026-11-27T09:30:00Z", to: file, modified: Date())
        let moved = try #require(Timestamp.date(from: "2026-11-27T09:30:00Z"))
        #expect(clock.now >= moved && clock.now < moved.addingTimeInterval(600))
        #expect(clock.wall.now() >= moved)
    }

    @Test func refusesAMissingFileOrOneWithoutAnInstant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.appending("clock")
        #expect(throws: FileClock.Unreadable.self) { try FileClock(file: file) }
        try write("tomorrow", to: file, modified: Date())
        let problem = #expect(throws: FileClock.Unreadable.self) { try FileClock(file: file) }
        #expect(problem?.description.contains("\"tomorrow\"") == true)
    }
}
