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
        // The real time is a manual clock: whole seconds, so the file's modification time keeps them.
        let real = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        try write("2026-11-26T03:00:00Z\n", to: file, modified: real.now)
        real.advance(3600)
        let clock = try FileClock(file: file, real: real.wall)
        let start = Timestamp("2026-11-26T03:00:00Z").date
        // An hour has passed since the file was written: the clock is an hour past its instant.
        #expect(clock.now == start.addingTimeInterval(3600))

        // A new instant written is read at once, and runs on from then.
        try write("2026-11-27T09:30:00Z", to: file, modified: real.now)
        let moved = Timestamp("2026-11-27T09:30:00Z").date
        #expect(clock.now == moved)
        real.advance(5)
        #expect(clock.wall.now() == moved.addingTimeInterval(5))
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
