import Inventory
import Synchronization

/// argon2id with the cheapest parameters, counting every hash it computes.
public final class CountingHasher: PasswordHashing {
    public let inner: Argon2id
    public let hashes = Mutex(0)
    public let verifications = Mutex(0)

    public init(opsLimit: UInt64 = 1, memLimit: Int = 8192) { inner = Argon2id(opsLimit: opsLimit, memLimit: memLimit) }

    public func hash(_ password: String) throws -> String {
        hashes.withLock { $0 += 1 }
        return try inner.hash(password)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        verifications.withLock { $0 += 1 }
        return inner.verify(password, against: hash)
    }

    public func needsRehash(_ hash: String) -> Bool { inner.needsRehash(hash) }

    public var computed: Int { hashes.withLock { $0 } + verifications.withLock { $0 } }
}
