import Foundation

/// A door threads wait at until a test opens it, once: `wait()` blocks the calling thread (never a
/// task of the cooperative pool) without polling, and returns at once after `open()`.
public final class Latch: @unchecked Sendable {
    // NSCondition: a blocking wait that wakes when signalled, not on a timer.
    private let condition = NSCondition()
    private var opened = false

    public init() {}

    public func open() {
        condition.lock()
        opened = true
        condition.broadcast()
        condition.unlock()
    }

    public var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return opened
    }

    public func wait() {
        condition.lock()
        while !opened { condition.wait() }
        condition.unlock()
    }
}
