import Foundation
import GRDB

/// What a database file holds, as a backup sees it: its migrations, rows per table, photo rows.
public struct DatabaseContents: Sendable {
    /// Applied migrations in the order they ran.
    public var migrations: [String]
    public var rowCounts: [String: Int]
    /// Every row of the `photo` table (empty before the migration that made it).
    public var photos: [(key: String, format: String)]
    /// Photo keys an item (in the trash too) or a product uses.
    public var usedPhotoKeys: Set<String>

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
    public var schemaVersion: String { migrations.last ?? "" }
}

/// Whole database files, for backups: a consistent copy of a live database, and what a copy
/// holds once it is checked. The files may be of any schema Zaiko ever made.
public enum DatabaseFiles {
    /// Copies the database through SQLite's online backup API from one read transaction (a
    /// committed state at one instant; writers go on meanwhile) into a new file, and makes the copy
    /// a standalone rollback-journal file. `dropping` sees what the copy holds and names the photo
    /// rows to leave out of it (or throws to give up); the contents of the copy as it stays.
    public static func snapshot(
        of source: any DatabaseReader, to file: URL, dropping: (DatabaseContents) throws -> [String]
    ) throws -> DatabaseContents {
        let copy = try DatabaseQueue(path: file.path)
        defer { try? copy.close() }
        try source.backup(to: copy)
        return try copy.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            let contents = try DatabaseContents(db)
            let dropped = try dropping(contents)
            if dropped.isEmpty { return contents }
            try db.inTransaction {
                for key in dropped { try db.execute(sql: "DELETE FROM photo WHERE key = ?", arguments: [key]) }
                return .commit
            }
            return try DatabaseContents(db)
        }
    }

    /// Opens `file` read-only and runs SQLite's full integrity check, then reads what it holds and
    /// every object of its schema. A damaged file (or one SQLite cannot read) throws
    /// `InventoryError.corruptDatabase` with what SQLite said.
    public static func inspect(_ file: URL) throws -> (contents: DatabaseContents, schema: Set<SchemaObject>) {
        do {
            return try read(file) { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard problems == ["ok"] else {
                    throw InventoryError.corruptDatabase(path: file.path, detail: problems.prefix(3).joined(separator: "; "))
                }
                return (try DatabaseContents(db), try SchemaObject.all(in: db))
            }
        } catch let error as DatabaseError {
            throw InventoryError.corruptDatabase(path: file.path, detail: error.message ?? "\(error.resultCode)")
        }
    }

    /// Opens a database file read-only (a backup's, another program's), reads it in one
    /// transaction and closes it; SQLite's errors come as they are, for the caller to word.
    public static func read<Value>(_ file: URL, _ body: (Database) throws -> Value) throws -> Value {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }
}

extension AppDatabase {
    /// The migrations this build applies, in order: a database it has opened lists exactly these.
    public static var knownMigrations: [String] { Schema.migrator.migrations }

    /// The database file's path ("" in memory).
    public var path: String { writer.path }

    /// `DatabaseFiles.snapshot` of this database, while the server goes on serving and writing.
    public func snapshot(to file: URL, dropping: (DatabaseContents) throws -> [String]) throws -> DatabaseContents {
        try DatabaseFiles.snapshot(of: writer, to: file, dropping: dropping)
    }

    /// Closes a connection opened beside a running server (the command line's `backup`) without
    /// waiting on it: folds the frames GRDB wrote while opening (it makes sure the WAL is not empty)
    /// with a passive checkpoint, since a truncating one would stall the server's writers behind
    /// its readers. Errors are ignored: the server's own connections stay as they are.
    public func closeBesideRunningServer() {
        try? writer.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        try? writer.close()
    }
}
