import Foundation
import GRDB
import Inventory

/// A consistent copy of the live database in one file, made while the server keeps writing:
/// `VACUUM INTO` reads one snapshot (WAL readers never block the writer) and writes a compact file.
/// Until the full archive (photos, manifest) is merged, automatic backups are this file.
public enum DatabaseSnapshot {
    public static func write(_ database: AppDatabase, to url: URL) throws {
        // VACUUM refuses to run inside a transaction: a reader connection outside one.
        try database.writer.unsafeRead { db in try db.execute(sql: "VACUUM INTO ?", arguments: [url.path]) }
    }
}
