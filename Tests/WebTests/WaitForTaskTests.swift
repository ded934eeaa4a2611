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
    @Test func everyStepOfTheWorkRunsOnTheWaitingThread() async throws {
        let (waiting, steps) = await withCheckedContinuation { (done: CheckedContinuation<(pthread_t, [pthread_t]), Never>) in
            // An answering thread of its own, outside the pool.
            Thread {
                let steps = Mutex<[pthread_t]>([])
                let value = waitForTask { () async -> Int in
                    steps.withLock { $0.append(pthread_self()) }
                    // A suspension resumed from another thread, as an outbound request's is.
                    let resumed = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                        Thread { continuation.resume(returning: 41) }.start()
                    }
                    steps.withLock { $0.append(pthread_self()) }
                    await Task.yield()
                    steps.withLock { $0.append(pthread_self()) }
                    // A child task runs there too.
                    async let child = { () async -> pthread_t in pthread_self() }()
                    let childThread = await child
                    steps.withLock { $0.append(childThread) }
                    return resumed + 1
                }
                precondition(value == 42)
                done.resume(returning: (pthread_self(), steps.withLock { $0 }))
            }.start()
        }
        #expect(steps.count == 4)
        #expect(steps.allSatisfy { pthread_equal($0, waiting) != 0 }, "a step ran on another thread (the pool's)")
    }
}
