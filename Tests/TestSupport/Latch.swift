import Foundation

/// A door threads wait at until a test opens it, once: `wait()` blocks the calling thread (never a
/// task of the cooperative pool) without polling, and returns at once after `open()`.
public final class Latch: @unchecked Sendable {
    // NSCondition: a blocking wait that wakes when signalled, not on a timer.
    private let condition = NSCondition()
    private var isOpen = false

    public init() {}

    public func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    public func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
}
