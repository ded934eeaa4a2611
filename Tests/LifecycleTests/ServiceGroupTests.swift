import Foundation
import Lifecycle
import Synchronization
import TestSupport
import Testing

/// What the fake services did, in order.
final class Journal: Sendable {
    private let lines = Mutex<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    func contains(_ line: String) -> Bool { all.contains(line) }
}

/// A value tasks and threads share.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}

/// A gate a test opens; those waiting at it go on.
final class Gate: Sendable {
    private let opened = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func wait() async {
        await withCheckedContinuation { continuation in
            let open = opened.withLock { state -> Bool in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }
    func open() {
        for waiter in opened.withLock({ state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }) { waiter.resume() }
    }
}

struct Broken: Error, Equatable {}

/// Writes "start NAME", runs until cancelled (or does what `ending` says), then writes "stop NAME"
/// once `leaving` opens.
struct FakeService: Service {
    enum Ending: Sendable { case whenCancelled, failsAtOnce, returnsAtOnce, failsWhenStopped }
    let name: String
    let journal: Journal
    var ending = Ending.whenCancelled
    var leaving: Gate? = nil

    func run() async throws {
        journal.write("start \(name)")
        switch ending {
        case .failsAtOnce: throw Broken()
        case .returnsAtOnce: return
        case .whenCancelled, .failsWhenStopped: await untilCancelled()
        }
        journal.write("stopping \(name)")
        await leaving?.wait()
        journal.write("stop \(name)")
        if ending == .failsWhenStopped { throw Broken() }
    }
}

/// A shutdown a test asks for: `ask()` makes `wait` return.
final class Shutdown: Sendable {
    let gate = Gate()
    func ask() { gate.open() }
    @Sendable func wait() async { await gate.wait() }
}

@Suite("One owner of the services")
struct ServiceGroupTests {
    @Test func startsInOrderAndStopsInReverseOrderWhenShutdownIsAsked() async throws {
        let journal = Journal()
        let shutdown = Shutdown()
        let group = ServiceGroup(["a", "b", "c"].map { FakeService(name: $0, journal: journal) })
        // One thread runs every task: the services begin in the order they were started.
        let running = Task(executorPreference: ThreadExecutor("zaiko.test.services")) { try await group.run(until: shutdown.wait) }
        try await eventually("all started") { journal.all.count == 3 }
        #expect(journal.all == ["start a", "start b", "start c"])
        shutdown.ask()
        try await running.value
        #expect(journal.all.suffix(6) == ["stopping c", "stop c", "stopping b", "stop b", "stopping a", "stop a"])
    }

    @Test func eachIsStoppedOnlyOnceTheOneStartedAfterItHasReturned() async throws {
        let journal = Journal()
        let shutdown = Shutdown()
        let lastOut = Gate()
        let group = ServiceGroup([
            FakeService(name: "database user", journal: journal),
            FakeService(name: "listeners", journal: journal, leaving: lastOut),
        ])
        let running = Task { try await group.run(until: shutdown.wait) }
        try await eventually("both started") { journal.all.count == 2 }
        shutdown.ask()
        try await eventually("the listeners asked to stop") { journal.contains("stopping listeners") }
        // The listeners are still finishing (answers in flight): the other is not asked yet.
        for _ in 0..<50 { await Task.yield() }
        #expect(!journal.contains("stopping database user"))
        lastOut.open()
        try await running.value
        #expect(journal.all.suffix(4) == ["stopping listeners", "stop listeners", "stopping database user", "stop database user"])
    }

    @Test func aFailingServiceStopsTheOthersInReverseOrderAndItsErrorIsThrown() async throws {
        let journal = Journal()
        let started = Gate()
        let group = ServiceGroup([
            FakeService(name: "a", journal: journal),
            FakeService(name: "b", journal: journal),
            GatedFailure(name: "c", journal: journal, after: started),
        ])
        let running = Task { try await group.run(until: { await untilCancelled() }) }
        try await eventually("a and b started") { journal.contains("start a") && journal.contains("start b") }
        started.open()
        await #expect(throws: Broken.self) { try await running.value }
        #expect(journal.all.suffix(4) == ["stopping b", "stop b", "stopping a", "stop a"])
    }

    @Test func aServiceReturningUnaskedStopsTheOthers() async throws {
        let journal = Journal()
        let group = ServiceGroup([
            FakeService(name: "a", journal: journal),
            FakeService(name: "cleaner", journal: journal, ending: .returnsAtOnce),
        ])
        await #expect(throws: ServiceEnded(name: "cleaner")) { try await group.run(until: { await untilCancelled() }) }
        #expect(journal.all.suffix(2) == ["stopping a", "stop a"])
    }

    @Test func anErrorThrownWhileStoppingIsThrownOnceAllHaveStopped() async throws {
        let journal = Journal()
        let shutdown = Shutdown()
        let group = ServiceGroup([
            FakeService(name: "a", journal: journal),
            FakeService(name: "b", journal: journal, ending: .failsWhenStopped),
        ])
        let running = Task { try await group.run(until: shutdown.wait) }
        try await eventually("both started") { journal.all.count == 2 }
        shutdown.ask()
        await #expect(throws: Broken.self) { try await running.value }
        #expect(journal.all.suffix(4) == ["stopping b", "stop b", "stopping a", "stop a"])
    }

    @Test func aShutdownAskedBeforeTheStartStillStartsAndStopsEach() async throws {
        let journal = Journal()
        let group = ServiceGroup(["a", "b"].map { FakeService(name: $0, journal: journal) })
        try await group.run(until: {})
        #expect(Set(journal.all.prefix(2)) == ["start a", "start b"])
        #expect(journal.all.suffix(4) == ["stopping b", "stop b", "stopping a", "stop a"])
    }
}

/// Starts, waits for `after` to open, then fails.
struct GatedFailure: Service {
    let name: String
    let journal: Journal
    let after: Gate

    func run() async throws {
        journal.write("start \(name)")
        await after.wait()
        throw Broken()
    }
}

@Suite("Blocking work off the cooperative pool")
struct OwnThreadTests {
    /// More blocked works than the pool has threads, and a task on the pool still runs to release
    /// them (held on the pool, they would time out instead, and the test fail).
    @Test func theWorkHoldsNoneOfThePoolsThreads() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let started = Shared(0)
        let release = Latch()
        // Opened whatever happens, so no thread is left waiting when the test fails.
        defer { release.open() }
        async let released = withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    await onOwnThread(named: "zaiko.test.\(index)") {
                        started.withLock { $0 += 1 }
                        release.wait()
                        return true
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await eventually("every work started") { started.withLock { $0 } == count }
        release.open()
        #expect(await released == Array(repeating: true, count: count))
    }

    @Test func aWaitWithALimitGivesUpOnWorkThatHasNotEnded() async {
        let release = Latch()
        #expect(await onOwnThread(named: "zaiko.test.quick", within: .seconds(60)) { 7 } == 7)
        // Work that cannot end before the test lets it: nil, and the work is left to its thread.
        let given = await onOwnThread(named: "zaiko.test.stuck", within: .milliseconds(1)) {
            release.wait()
            return 1
        }
        #expect(given == nil)
        release.open()
    }
}
