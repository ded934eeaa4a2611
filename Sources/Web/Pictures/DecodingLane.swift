import Dispatch
import Imaging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where every image is decoded, one at a time for the whole server. Decoding a 49-megapixel
/// photo takes about 200 MB: done on every worker thread at once that is gigabytes, and glibc
/// keeps the freed arenas. Here at most one such buffer exists, and the memory goes back to the
/// system after each. A serial Dispatch queue (not the Swift cooperative pool, so reminders and
/// other tasks never wait behind a decode); the worker thread that asked waits for its turn.
final class DecodingLane: Sendable {
    private let queue = DispatchQueue(label: "zaiko.image-decoding", qos: .userInitiated)
    private let running = Atomic<Int>(0)
    /// The most decodes ever running at once (tests check it stays 1).
    let mostAtOnce = Atomic<Int>(0)
    /// Decodes finished, for tests.
    let finished = Atomic<Int>(0)

    /// glibc's `malloc_trim` (not in Swift's Glibc module; nil on another C library).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Runs `work` when no other decode runs, then returns freed memory to the system.
    func run<T: Sendable>(_ work: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        let result: Result<T, ImagingError> = queue.sync {
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            defer {
                running.subtract(1, ordering: .sequentiallyConsistent)
                finished.add(1, ordering: .sequentiallyConsistent)
                // The decoded pixels were freed; without this glibc keeps their pages for later.
                Self.mallocTrim?(0)
            }
            return Result { () throws(ImagingError) -> T in try work() }
        }
        return try result.get()
    }
}
