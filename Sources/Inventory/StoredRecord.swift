import GRDB
import Tagged

/// A row of a table whose `id` SQLite gives (`INTEGER PRIMARY KEY`), as read from the database:
/// its typed id, which a stored record always has, and its draft, the values an insert writes.
///
/// A new row starts as a draft and becomes a stored record by GRDB's
/// `insertAndFetch(_:as:)` (`INSERT … RETURNING *`), so there is no record without an id and no
/// id to unwrap: `try Item.Draft(…).insertAndFetch(db, as: Item.self)`. The draft's fields read
/// and write as the record's own (`item.name` is `item.draft.name`), so the fields are declared
/// once, on the draft.
public protocol StoredRecord: FetchableRecord, PersistableRecord, Identifiable, Sendable, Equatable
where ID == Tagged<Self, Int64> {
    associatedtype Draft: FetchableRecord & PersistableRecord & Sendable & Equatable

    var id: ID { get }
    var draft: Draft { get set }

    init(id: ID, draft: Draft)
}

extension StoredRecord {
    /// The draft's table: a draft and its stored record are the same row.
    public static var databaseTableName: String { Draft.databaseTableName }

    public init(row: Row) throws { self.init(id: row["id"], draft: try Draft(row: row)) }

    /// The draft's columns and the id, so that `update` and `delete` find the row by its key.
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        try draft.encode(to: &container)
    }

    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Draft, Value>) -> Value {
        get { draft[keyPath: field] }
        set { draft[keyPath: field] = newValue }
    }

    /// A value the draft computes (`item.picture`).
    @inlinable
    public subscript<Value>(dynamicMember value: KeyPath<Draft, Value>) -> Value { draft[keyPath: value] }
}
