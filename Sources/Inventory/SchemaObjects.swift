import Foundation
import GRDB

/// One object of a database's schema as `sqlite_master` lists it: a table, index, trigger or view.
public struct SchemaObject: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let type: String
    public let name: String
    public let table: String
    /// The statement that made it; nil for the indexes SQLite makes itself (UNIQUE, PRIMARY KEY).
    public let sql: String?

    public init(type: String, name: String, table: String, sql: String?) {
        self.type = type
        self.name = name
        self.table = table
        self.sql = sql
    }

    public static func < (lhs: SchemaObject, rhs: SchemaObject) -> Bool {
        (lhs.name, lhs.type, lhs.table, lhs.sql ?? "") < (rhs.name, rhs.type, rhs.table, rhs.sql ?? "")
    }

    public var description: String { "\(type) \"\(name)\"" }

    /// Every object in `db`'s schema, except the tables SQLite keeps for itself (statistics of
    /// `ANALYZE`, AUTOINCREMENT counters), which hold rows only and appear whenever SQLite likes;
    /// those are listed only when they are not exactly SQLite's own.
    static func all(in db: Database) throws -> Set<SchemaObject> {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
        var objects: Set<SchemaObject> = []
        for row in rows {
            let object = SchemaObject(type: row["type"], name: row["name"], table: row["tbl_name"], sql: row["sql"])
            if object.type == "table", let sql = sqliteOwnTables[object.name], object.sql == sql { continue }
            objects.insert(object)
        }
        return objects
    }

    /// SQLite's internal tables that come and go on their own, with the statement SQLite gives each.
    static let sqliteOwnTables = [
        "sqlite_sequence": "CREATE TABLE sqlite_sequence(name,seq)",
        "sqlite_stat1": "CREATE TABLE sqlite_stat1(tbl,idx,stat)",
        "sqlite_stat4": "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)",
    ]

    /// The objects Zaiko's migrations make, applied in order up to and including `migration`, in a
    /// fresh in-memory database; nil when `migration` is not one of this build's.
    public static func made(upTo migration: String) throws -> Set<SchemaObject>? {
        let migrator = Schema.migrator
        guard migrator.migrations.contains(migration) else { return nil }
        let queue = try DatabaseQueue()
        try migrator.migrate(queue, upTo: migration)
        return try queue.read { db in try all(in: db) }
    }
}
