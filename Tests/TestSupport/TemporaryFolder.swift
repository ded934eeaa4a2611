import Foundation

/// A folder of its own under the system's temporary directory; `remove()` it when done
/// (a `defer` right after creating it).
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ prefix: String = "zaiko-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// Where a test's database file goes.
    public var databaseURL: URL { url.appendingPathComponent("zaiko.sqlite") }

    public func appending(_ name: String) -> URL { url.appendingPathComponent(name) }
}
