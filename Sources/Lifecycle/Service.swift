/// A part of the server that works in the background for as long as the server runs: the reminder
/// engine, the daily backups, the certificate renewal, the photo cleaner, the listeners. Started and
/// stopped by one owner, `ServiceGroup`.
public protocol Service: Sendable {
    /// What logs and errors call it ("reminders", "listeners").
    var name: String { get }

    /// Runs until the task running it is cancelled, then finishes what it is doing (a backup being
    /// written, a pass over the reminders, answers in flight) and returns. Returning before that, or
    /// throwing, stops the server.
    func run() async throws
}

/// A service returned although nobody asked it to stop.
public struct ServiceEnded: Error, Equatable, CustomStringConvertible {
    public let name: String

    public init(name: String) { self.name = name }

    public var description: String { "The \(name) stopped on their own." }
}

/// Returns once the current task is cancelled (at once when it already is). Never polls.
public func untilCancelled() async {
    // An AsyncStream's iteration ends when its task is cancelled; nothing is ever sent on this one.
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    continuation.finish()
}
