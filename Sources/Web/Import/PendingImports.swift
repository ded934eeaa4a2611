import Foundation
import Inventory
import Synchronization

/// Uploaded CSV files waiting for the person to confirm their preview, kept in memory.
///
/// Memory rather than a folder on disk: a file is small (`ItemsCSVReader.maxBytes`), waits for
/// minutes, and is bound to one household and one session by a random token the server made, so
/// no path ever comes from the client, nothing with a household's data is left on disk when the
/// server stops, and there is nothing to clean up after a crash. A restart only means choosing
/// the file again. Each session keeps its latest upload only; uploads expire after `lifetime`,
/// and the oldest go first beyond `capacity`.
final class PendingImports: Sendable {
    struct Upload: Sendable {
        let householdId: Int64
        let sessionId: Int64
        let data: Data
        let folderId: Int64
        let keptAt: Date
    }

    static let lifetime: TimeInterval = 30 * 60
    static let capacity = 32

    private let uploads = Mutex<[String: Upload]>([:])
    private let clock: WallClock

    init(clock: WallClock) { self.clock = clock }

    /// Keeps `data` for the member's session, replacing that session's earlier upload; returns its token.
    func keep(_ data: Data, folderId: Int64, for member: SignedIn) -> String {
        let token = Crypto.token()
        let now = clock.now()
        uploads.withLock { uploads in
            uploads = uploads.filter { $0.value.sessionId != member.sessionId && now.timeIntervalSince($0.value.keptAt) < Self.lifetime }
            while uploads.count >= Self.capacity, let oldest = uploads.min(by: { $0.value.keptAt < $1.value.keptAt })?.key {
                uploads[oldest] = nil
            }
            uploads[token] = Upload(householdId: member.householdId, sessionId: member.sessionId, data: data, folderId: folderId, keptAt: now)
        }
        return token
    }

    /// Takes out the upload behind `token` if it belongs to this member's household and session
    /// and has not expired: once, so a confirmation sent twice (a double tap) imports once.
    func take(_ token: String, for member: SignedIn) -> Upload? {
        let now = clock.now()
        return uploads.withLock { uploads in
            guard let upload = uploads[token], upload.householdId == member.householdId, upload.sessionId == member.sessionId else { return nil }
            uploads[token] = nil
            return now.timeIntervalSince(upload.keptAt) < Self.lifetime ? upload : nil
        }
    }

    var count: Int { uploads.withLock { $0.count } }
}
