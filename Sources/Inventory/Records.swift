import Foundation
import GRDB

public struct Household: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var name: String
    public var timeZone: String
    public var dueSoonDays: Int
    public var createdAt: String
    /// Where unknown barcodes are looked up online; nil when the owner has not turned it on.
    public var productLookupUrl: String? = nil
    /// What happens to an item a cook uses up: "trash" or "shopping" (moved to a shopping list).
    public var usedUp: String = "trash"
    /// The shopping list used-up items go to; nil (or gone): the first shopping list.
    public var usedUpFolderId: Int64? = nil

    public init(id: Int64? = nil, name: String, timeZone: String = "UTC", dueSoonDays: Int = 3, createdAt: String = Timestamp.now()) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.dueSoonDays = dueSoonDays
        self.createdAt = createdAt
    }

    public static let databaseTableName = "household"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

public enum FolderKind: String, Codable, Sendable, CaseIterable {
    case stock, shopping
}

public struct Folder: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var householdId: Int64
    public var name: String
    public var kind: FolderKind
    public var icon: String
    public var position: Int
    public var createdAt: String
    public var deletedAt: String? = nil
    /// Shopping lists: the stock folder bought items went to last.
    public var lastStockFolderId: Int64? = nil
    /// Items in it, outside the trash (kept by triggers).
    public var itemCount: Int = 0
    /// A starter folder nobody has renamed: its catalog key ("starter_fridge"), so each reader sees
    /// the name in their own language. Nil once renamed, and for folders people made.
    public var starter: String? = nil

    public init(
        id: Int64? = nil, householdId: Int64, name: String, kind: FolderKind, icon: String = "box", position: Int = 0, createdAt: String = Timestamp.now()
    ) {
        self.id = id
        self.householdId = householdId
        self.name = name
        self.kind = kind
        self.icon = icon
        self.position = position
        self.createdAt = createdAt
    }

    public static let databaseTableName = "folder"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

public struct Item: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// Decoded by hand: list pages read 50 at a time, and Codable decoding cost more than the query.
    public init(row: Row) throws {
        id = row["id"]
        householdId = row["household_id"]
        folderId = row["folder_id"]
        name = row["name"]
        photo = row["photo"]
        illustration = row["illustration"]
        quantity = row["quantity"]
        unit = row["unit"]
        kind = row["kind"]
        note = row["note"]
        barcode = row["barcode"]
        due = row["due"]
        remindAt = row["remind_at"]
        status = row["status"]
        urgent = row["urgent"]
        version = row["version"]
        createdAt = row["created_at"]
        updatedAt = row["updated_at"]
        deletedAt = row["deleted_at"]
        searchText = row["search_text"] ?? ""
    }

    public var id: Int64?
    public var householdId: Int64
    public var folderId: Int64
    public var name: String
    /// The key of a stored photo (see `PhotoStore`).
    public var photo: String?
    /// A built-in illustration's slug (see `Illustrations`).
    public var illustration: String?
    public var quantity: Double
    public var unit: String
    public var kind: String
    public var note: String
    public var barcode: String?
    /// Calendar date "YYYY-MM-DD" (no time zone).
    public var due: String?
    public var remindAt: String?
    public var status: String?
    public var urgent: Bool
    public var version: Int
    public var createdAt: String
    public var updatedAt: String
    public var deletedAt: String?
    public var searchText: String = ""

    public init(
        id: Int64? = nil, householdId: Int64, folderId: Int64, name: String, photo: String? = nil, illustration: String? = nil,
        quantity: Double = 1, unit: String = "piece", kind: String = "other", note: String = "",
        barcode: String? = nil, due: String? = nil, remindAt: String? = nil, status: String? = nil,
        urgent: Bool = false, version: Int = 1, createdAt: String = Timestamp.now(),
        updatedAt: String = Timestamp.now(), deletedAt: String? = nil
    ) {
        self.id = id
        self.householdId = householdId
        self.folderId = folderId
        self.name = name
        self.photo = photo
        self.illustration = illustration
        self.quantity = quantity
        self.unit = unit
        self.kind = kind
        self.note = note
        self.barcode = barcode
        self.due = due
        self.remindAt = remindAt
        self.status = status
        self.urgent = urgent
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.searchText = SearchText.fold(name, note)
    }

    /// What the item shows as its picture, if anything.
    public var picture: Picture? {
        if let photo { return .photo(photo) }
        return illustration.map(Picture.illustration)
    }

    public static let databaseTableName = "item"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Timestamps are stored as UTC ISO-8601 text ("2026-11-22T05:10:00Z"), which sorts as time does.
public enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    public static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }

    public static func date(from text: String?) -> Date? {
        guard let text else { return nil }
        return try? Date(text, strategy: .iso8601)
    }
}
