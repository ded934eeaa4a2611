import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Web

/// A handler's async work (a recipe fetch, a product lookup) must not need Swift's cooperative
/// pool: the pool is as wide as the machine has cores, and whatever else runs on it (the engine,
/// or a test process's other tests) can hold every thread of it for longer than the request's
/// deadline. The answering thread that waits runs the work itself.
@Suite("Waiting for a task on an answering thread")
struct WaitForTaskTests {
    @Test func theWorkFinishesWhileEveryThreadOfThePoolIsHeld() async throws {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // One task per thread of the pool, each blocking its thread until released.
        for _ in 0..<width {
            Task.detached {
                holding.signal()
                release.wait()
            }
        }
        // An answering thread of its own: the test's task needs the pool too.
        let answeredWhileHeld = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            Thread {
                for _ in 0..<width { holding.wait() }
                // Whoever comes first releases the pool: the work's end, or (the failure bound
                // only, as a pool-bound wait would last for ever) ten seconds.
                let released = Mutex(false)
                let releaseOnce = { @Sendable () -> Bool in
                    guard
                        released.withLock({
                            let was = $0
                            $0 = true
                            return !was
                        })
                    else { return false }
                    for _ in 0..<width { release.signal() }
                    return true
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + 10) { _ = releaseOnce() }
                let value = waitForTask { () async -> Int in
                    // A suspension resumed from another thread, as an outbound request's is.
                    let resumed = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                        Thread { continuation.resume(returning: 41) }.start()
                    }
                    await Task.yield()
                    return resumed + 1
                }
                done.resume(returning: releaseOnce() && value == 42)
            }.start()
        }
        #expect(answeredWhileHeld, "the work waited for the cooperative pool")
    }
}
