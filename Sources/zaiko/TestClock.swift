import Foundation
import Inventory

/// The browser tests' clock. Only when the environment variable `ZAIKO_TEST_CLOCK` names a file does
/// Zaiko read the time from it (see `FileClock`); there is no option for it, so it is never on by accident.
enum TestClock {
    static let variable = "ZAIKO_TEST_CLOCK"

    /// The file clock `ZAIKO_TEST_CLOCK` names, or nil when it is not set.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> FileClock? {
        guard let path = environment[variable], !path.isEmpty else { return nil }
        do { return try FileClock(file: URL(fileURLWithPath: path)) } catch let problem as FileClock.Unreadable {
            throw Failure(message: problem.description)
        }
    }

    /// The clock a command runs on: the test clock when set, else the system's.
    static func wall() throws -> WallClock { try fromEnvironment()?.wall ?? .system }
}
