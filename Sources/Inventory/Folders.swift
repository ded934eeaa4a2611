import Foundation
import GRDB

/// A folder with what the folders page shows about it.
public struct FolderOverview: Sendable, Equatable {
    public let id: Folder.ID
    public let name: String
    public let kind: FolderKind
    public let icon: String
    public let itemCount: Int
    public let expired: Int
    public let dueSoon: Int
    /// The starter key while it is an unrenamed starter folder (see `Folder.starter`).
    public var starter: String? = nil
}

/// The household's folders: stock lists and shopping lists in the household's order.
public struct Folders: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// The icons drawn for Zaiko (`Public/icons/folders/<name>.svg`).
    public static let icons = [
        "fridge", "freezer", "pantry", "cart", "box", "shelf", "cupboard", "rice", "bottle", "wine", "can", "bread",
        "vegetables", "fruit", "fish", "meat", "egg", "milk", "spices", "snacks", "baby", "pet", "medicine", "bathroom",
        "laundry", "cleaning", "toilet-paper", "tools", "garage", "garden", "basket", "bag", "store", "drugstore", "home",
        "star", "heart", "list",
    ]

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Every folder with its item count and, for stock lists, how many items are expired and
    /// due within the household's window (dates in the household's time zone).
    public func overview(in scope: HouseholdScope) throws -> [FolderOverview] {
        try database.writer.read { db in
            let household = try HouseholdSettings.householdIfAny(db, scope.householdId)
            let zone = household.flatMap { TimeZone(identifier: $0.timeZone) } ?? .gmt
            let today = CalendarDay.today(in: zone, now: clock.now())
            let soon = today.adding(days: household?.dueSoonDays ?? 3)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT f.id, f.name, f.starter, f.kind, f.icon, f.item_count,
                               (SELECT COUNT(*) FROM item i WHERE i.folder_id = f.id AND i.deleted_at IS NULL AND i.due IS NOT NULL AND i.due < ?) AS expired,
                               (SELECT COUNT(*) FROM item i WHERE i.folder_id = f.id AND i.deleted_at IS NULL AND i.due IS NOT NULL AND i.due BETWEEN ? AND ?) AS soon
                        FROM folder f WHERE f.household_id = ? AND f.deleted_at IS NULL ORDER BY f.position, f.id
                        """), arguments: [today.description, today.description, soon.description, scope.householdId]
            ).map {
                let kind = FolderKind(rawValue: $0["kind"]) ?? .stock
                return FolderOverview(
                    id: $0["id"], name: $0["name"], kind: kind, icon: $0["icon"], itemCount: $0["item_count"],
                    expired: kind == .stock ? $0["expired"] : 0, dueSoon: kind == .stock ? $0["soon"] : 0, starter: $0["starter"])
            }
        }
    }

    static func check(name: String, icon: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        var errors: [String: FieldProblem] = [:]
        if trimmed.isEmpty { errors["name"] = .folderNameRequired } else if trimmed.storedLength > 100 { errors["name"] = .nameTooLong }
        if !icons.contains(icon) { errors["icon"] = .iconInvalid }
        if !errors.isEmpty { throw InventoryError.validation(errors) }
        return trimmed
    }

    @discardableResult
    public func create(name: String, kind: FolderKind, icon: String, in scope: HouseholdScope) throws -> Folder.ID {
        let trimmed = try Self.check(name: name, icon: icon)
        let time = Timestamp(clock.now())
        return try database.write(by: nil, at: time) { db in
            let last = try Int.fetchOne(db, sql: "SELECT MAX(position) FROM folder WHERE household_id = ?", arguments: [scope.householdId]) ?? -1
            let folder = Folder.Draft(householdId: scope.householdId, name: trimmed, kind: kind, icon: icon, position: last + 1, createdAt: time)
            return try folder.insertAndFetch(db, as: Folder.self).id
        }
    }

    /// `shownName`: the name the form showed (a starter folder's name in the reader's language).
    /// Sent back unchanged it is no rename: a starter folder keeps following each reader's language.
    public func update(_ id: Folder.ID, name: String, icon: String, in scope: HouseholdScope, shownName: String? = nil) throws {
        let trimmed = try Self.check(name: name, icon: icon)
        try database.write(by: nil, at: Timestamp(clock.now())) { db in
            let folder = try Items.folder(db, id, scope.householdId)
            if trimmed == (shownName ?? folder.name) {
                try db.execute(sql: "UPDATE folder SET icon = ? WHERE id = ?", arguments: [icon, id])
            } else {
                try db.execute(sql: "UPDATE folder SET name = ?, icon = ?, starter = NULL WHERE id = ?", arguments: [trimmed, icon, id])
            }
        }
    }

    /// Swaps a folder with its neighbour above (-1) or below (+1) in the household's order.
    public func move(_ id: Folder.ID, by step: Int, in scope: HouseholdScope) throws {
        try database.write(by: nil, at: Timestamp(clock.now())) { db in
            var ids = try Folder.ID.fetchAll(
                db, sql: "SELECT id FROM folder WHERE household_id = ? AND deleted_at IS NULL ORDER BY position, id", arguments: [scope.householdId])
            guard let index = ids.firstIndex(of: id) else { throw InventoryError.notFound }
            let other = index + (step < 0 ? -1 : 1)
            guard ids.indices.contains(other) else { return }
            ids.swapAt(index, other)
            for (position, folderId) in ids.enumerated() {
                try db.execute(sql: "UPDATE folder SET position = ? WHERE id = ?", arguments: [position, folderId])
            }
        }
    }

    /// How many items go to the trash with the folder.
    public func itemCount(_ id: Folder.ID, in scope: HouseholdScope) throws -> Int {
        try database.writer.read { db in
            try Items.folder(db, id, scope.householdId).itemCount
        }
    }

    /// The folder and its items go to the trash together (restoring an item brings the folder back).
    public func delete(_ id: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = Timestamp(clock.now())
        try database.write(by: memberId, at: time) { db in
            let folder = try Items.folder(db, id, scope.householdId)
            for var item in try Item.fetchAll(db, sql: "SELECT * FROM item WHERE folder_id = ? AND deleted_at IS NULL", arguments: [id]) {
                item.deletedAt = time
                item.version += 1
                try item.update(db)
                try Items.record(db, item, "deleted", folder.name, by: memberId, at: time)
            }
            try db.execute(sql: "UPDATE folder SET deleted_at = ? WHERE id = ?", arguments: [time, id])
            // An empty folder has nothing to come back with: gone at once.
            try Items.dropEmptyDeletedFolders(db, scope.householdId)
        }
    }
}
