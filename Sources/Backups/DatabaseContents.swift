import Foundation
import GRDB
import Inventory

/// What a database file holds, as a backup sees it: its migrations, rows per table, photo rows.
struct DatabaseContents {
    /// Applied migrations in the order they ran.
    var migrations: [String]
    var rowCounts: [String: Int]
    /// Every row of the `photo` table (empty before the migration that made it).
    var photos: [(key: String, format: String)]
    /// Photo keys an item (in the trash too) or a product uses.
    var usedPhotoKeys: Set<String>

    init(_ db: Database) throws {
        migrations =
            try db.tableExists("grdb_migrations")
            ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") : []
        rowCounts = [:]
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for table in tables {
            rowCounts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
        }
        photos = []
        usedPhotoKeys = []
        if try db.tableExists("photo") {
            photos = try Row.fetchAll(db, sql: "SELECT key, format FROM photo ORDER BY key").map { ($0["key"], $0["format"]) }
            for table in ["item", "product", "recipe"] where try db.tableExists(table) {
                let keys = try String.fetchAll(db, sql: "SELECT DISTINCT photo FROM \(table) WHERE photo IS NOT NULL")
                usedPhotoKeys.formUnion(keys)
            }
        }
    }

    /// The last migration applied: the schema version a manifest records.
    var schemaVersion: String { migrations.last ?? "" }
}

/// The migrations this build of Zaiko knows, in order: read from a fresh in-memory database,
/// so the list is always the one `AppDatabase` applies.
enum KnownSchema {
    static let migrations: [String] = {
        guard let database = try? AppDatabase.inMemory(),
            let identifiers = try? database.writer.read({ db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            })
        else { return [] }
        return identifiers
    }()
}
