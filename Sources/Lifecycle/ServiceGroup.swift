/// The one owner of the server's services. Starts them in the order given, so that each may rely on
/// the ones before it, and stops them in reverse order, each only once the one started after it
/// has returned: when `shutdown` returns (SIGTERM, SIGINT), or as soon as any of them fails or
/// returns on its own, whose error `run` then throws.
///
/// A service is stopped by cancelling the task that runs it. (When the task running the group is
/// itself cancelled, every service sees that at once and the order is lost: stop through `shutdown`.)
public struct ServiceGroup: Sendable {
    public let services: [any Service]

    public init(_ services: [any Service]) { self.services = services }

    /// Runs every service until `shutdown` returns or one of them ends, then stops the others in
    /// reverse order and returns once all have. Throws the first failure, `ServiceEnded` for a service
    /// that returned unasked; an error a service throws once asked to stop is thrown too, except
    /// `CancellationError`.
    public func run(until shutdown: @escaping @Sendable () async -> Void) async throws {
        let stops = services.map { _ in AsyncStream<Never>.makeStream() }
        let failure: (any Error)? = await withTaskGroup(of: Event.self) { group in
            for (index, service) in services.enumerated() {
                let stop = stops[index].stream
                group.addTask { .ended(index, await Self.run(service, until: stop)) }
            }
            group.addTask {
                await shutdown()
                return .shutdownAsked
            }
            var ended = Set<Int>()
            var failure: (any Error)?
            func record(_ event: Event?) {
                guard case .ended(let index, let outcome) = event else { return }
                ended.insert(index)
                guard failure == nil else { return }
                switch outcome {
                case .failed(let error): failure = error
                case .returnedUnasked: failure = ServiceEnded(name: services[index].name)
                case .stoppedWhenAsked: break
                }
            }
            // Whatever comes first (the shutdown, a service ending) stops them all.
            record(await group.next())
            for index in services.indices.reversed() where !ended.contains(index) {
                stops[index].continuation.finish()
                while !ended.contains(index), let event = await group.next() { record(event) }
            }
            // The shutdown's wait, when a service's end came first.
            group.cancelAll()
            return failure
        }
        if let failure { throw failure }
    }

    enum Event: Sendable {
        case shutdownAsked
        case ended(Int, Outcome)
    }

    enum Outcome: Sendable {
        case stoppedWhenAsked
        case returnedUnasked
        case failed(any Error)
    }

    /// Runs `service` in a task of its own until `stop` finishes, then cancels that task and waits for it.
    static func run(_ service: any Service, until stop: AsyncStream<Never>) async -> Outcome {
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    try await service.run()
                    return Task.isCancelled ? .stoppedWhenAsked : .returnedUnasked
                } catch is CancellationError where Task.isCancelled {
                    return .stoppedWhenAsked
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                for await _ in stop {}
                return nil
            }
            let first = await group.next() ?? nil
            // Asked to stop: the service's task is cancelled. Ended first: the stop's wait is.
            group.cancelAll()
            if let first { return first }
            return await group.next().flatMap { $0 } ?? .stoppedWhenAsked
        }
    }
}
