import GRDB

/// A folder with what the folders page shows about it.
public struct FolderOverview: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let kind: FolderKind
    public let icon: String
    public let itemCount: Int
}

/// The household's folders: stock lists and shopping lists in the household's order.
public struct Folders: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func overview(householdId: Int64) throws -> [FolderOverview] {
        try database.writer.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT f.id, f.name, f.kind, f.icon,
                       (SELECT COUNT(*) FROM item i WHERE i.folder_id = f.id AND i.deleted_at IS NULL) AS item_count
                FROM folder f WHERE f.household_id = ? ORDER BY f.position, f.id
                """), arguments: [householdId]).map {
                FolderOverview(id: $0["id"], name: $0["name"], kind: FolderKind(rawValue: $0["kind"]) ?? .stock, icon: $0["icon"], itemCount: $0["item_count"])
            }
        }
    }
}
