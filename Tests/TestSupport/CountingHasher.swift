import Foundation
import Inventory
import Synchronization

/// argon2id with the cheapest parameters, counting every hash it computes.
public final class CountingHasher: PasswordHashing {
    public let inner: Argon2id
    public let hashes = Mutex(0)
    public let verifications = Mutex(0)
    /// Extra seconds per check, standing in for the real cost so concurrent attempts overlap.
    public let delay: TimeInterval

    public init(opsLimit: UInt64 = 1, memLimit: Int = 8192, delay: TimeInterval = 0) {
        inner = Argon2id(opsLimit: opsLimit, memLimit: memLimit)
        self.delay = delay
    }

    public func hash(_ password: String) throws -> String {
        hashes.withLock { $0 += 1 }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return try inner.hash(password)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        verifications.withLock { $0 += 1 }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return inner.verify(password, against: hash)
    }

    public func needsRehash(_ hash: String) -> Bool { inner.needsRehash(hash) }

    public var computed: Int { hashes.withLock { $0 } + verifications.withLock { $0 } }
}
