import Foundation
import GRDB
import Tagged

/// A household: the people who share one inventory, and its settings.
@dynamicMemberLookup
public struct Household: StoredRecord {
    /// A household's id, a type of its own so that it is never confused with another record's.
    public typealias ID = Tagged<Household, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A household's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        /// Decoded by hand: every page reads the household, and Codable decoding cost more than the query.
        public init(row: Row) throws {
            name = row["name"]
            timeZone = row["time_zone"]
            dueSoonDays = row["due_soon_days"]
            createdAt = try row.decode(forColumn: "created_at")
            productLookupUrl = row["product_lookup_url"]
            usedUp = row["used_up"]
            usedUpFolderId = row["used_up_folder_id"]
            memberFetchesPrivate = row["member_fetches_private"]
        }

        public var name: String
        public var timeZone: String
        public var dueSoonDays: Int
        public var createdAt: Timestamp
        /// Where unknown barcodes are looked up online; nil when the owner has not turned it on.
        public var productLookupUrl: String? = nil
        /// What happens to an item a cook uses up: "trash" or "shopping" (moved to a shopping list).
        public var usedUp: String = "trash"
        /// The shopping list used-up items go to; nil (or gone): the first shopping list.
        public var usedUpFolderId: Folder.ID? = nil
        /// Whether members' recipe imports may reach the home network (local and private addresses),
        /// when the operator allows private outbound at all; off unless the owner turns it on.
        public var memberFetchesPrivate: Bool = false

        public init(name: String, timeZone: String = "UTC", dueSoonDays: Int = 3, createdAt: Timestamp = .now()) {
            self.name = name
            self.timeZone = timeZone
            self.dueSoonDays = dueSoonDays
            self.createdAt = createdAt
        }

        public static let databaseTableName = "household"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}

public enum FolderKind: String, Codable, Sendable, CaseIterable {
    case stock, shopping
}

/// A stock list or shopping list.
@dynamicMemberLookup
public struct Folder: StoredRecord {
    public typealias ID = Tagged<Folder, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A folder's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        /// Decoded by hand: every list page reads all the folders (its menus), and Codable decoding
        /// cost more than the query.
        public init(row: Row) throws {
            householdId = row["household_id"]
            name = row["name"]
            guard let kind = FolderKind(rawValue: row["kind"]) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "folder \(row["id"] as Int64? ?? 0) has an unknown kind")
            }
            self.kind = kind
            icon = row["icon"]
            position = row["position"]
            createdAt = try row.decode(forColumn: "created_at")
            deletedAt = try row.decode(forColumn: "deleted_at")
            lastStockFolderId = row["last_stock_folder_id"]
            itemCount = row["item_count"]
            starter = row["starter"]
        }

        public var householdId: Household.ID
        public var name: String
        public var kind: FolderKind
        public var icon: String
        public var position: Int
        public var createdAt: Timestamp
        public var deletedAt: Timestamp? = nil
        /// Shopping lists: the stock folder bought items went to last.
        public var lastStockFolderId: Folder.ID? = nil
        /// Items in it, outside the trash (kept by triggers).
        public var itemCount: Int = 0
        /// A starter folder nobody has renamed: its catalog key ("starter_fridge"), so each reader sees
        /// the name in their own language. Nil once renamed, and for folders people made.
        public var starter: String? = nil

        public init(
            householdId: Household.ID, name: String, kind: FolderKind, icon: String = "box", position: Int = 0, createdAt: Timestamp = .now()
        ) {
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
    }
}

extension Item {
    /// What one tap of the row's − or + changes: as learned from the product's uses, else the
    /// unit's (one tap on 300 g is 250 g).
    public var step: Double { draft.useStep ?? draft.values.unit.step }
}

/// One thing the household has or must buy: its typed id and its draft, which holds what a person
/// edits of it, `values` (declared once, in `ItemValues`), and what storage keeps around them.
/// `item.name` reads and writes `item.draft.values.name`, `item.folderId` `item.draft.folderId`.
@dynamicMemberLookup
public struct Item: StoredRecord {
    public typealias ID = Tagged<Item, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// An edited field, `item.name` for `item.draft.values.name`. Declared here as well as on the
    /// draft so that the key path is one constant component (`\ItemValues.name`), made once: through
    /// `StoredRecord`'s lookup it would be a path through the draft's own lookup subscript, built
    /// anew on every read, and list pages read a dozen fields of every row (3× the stock list's CPU).
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<ItemValues, Value>) -> Value {
        get { draft.values[keyPath: field] }
        set { draft.values[keyPath: field] = newValue }
    }

    /// Decoded by hand: list pages read 50 at a time, and Codable decoding cost more than the query.
    public init(row: Row) throws { try self.init(row: row, at: try ColumnPositions(Array(row.columnNames))) }

    /// A row read by column position (see `Draft.init(row:at:)`).
    init(row: Row, at c: ColumnPositions) throws {
        self.init(id: row[c.id], draft: try Draft(row: row, at: c))
    }

    /// Where each column sits in a statement's rows.
    struct ColumnPositions {
        let id, householdId, folderId, name, photo, illustration, quantity, unit, kind, note, barcode, due, remindAt,
            status, urgent, version, createdAt, updatedAt, deletedAt: Int
        let searchText, inBasket, inBasketBy, refillQuantity, useStep: Int?

        init(_ names: [String]) throws {
            func at(_ column: String) throws -> Int {
                guard let index = names.firstIndex(of: column) else {
                    throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "an item row without its \(column) column")
                }
                return index
            }
            (id, householdId, folderId, name) = (try at("id"), try at("household_id"), try at("folder_id"), try at("name"))
            (photo, illustration, quantity, unit) = (try at("photo"), try at("illustration"), try at("quantity"), try at("unit"))
            (kind, note, barcode, due) = (try at("kind"), try at("note"), try at("barcode"), try at("due"))
            (remindAt, status, urgent, version) = (try at("remind_at"), try at("status"), try at("urgent"), try at("version"))
            (createdAt, updatedAt, deletedAt) = (try at("created_at"), try at("updated_at"), try at("deleted_at"))
            searchText = names.firstIndex(of: "search_text")
            (inBasket, inBasketBy) = (names.firstIndex(of: "in_basket"), names.firstIndex(of: "in_basket_by"))
            refillQuantity = names.firstIndex(of: "refill_quantity")
            useStep = names.firstIndex(of: "use_step")
        }
    }

    /// Every item the statement gives, its columns found once.
    static func fetchList(_ statement: Statement, arguments: StatementArguments) throws -> [Item] {
        try fetchList(statement, arguments: arguments) { item, _ in item }
    }

    /// Every row the statement gives, as its item and whatever else the row carries; the item's
    /// columns found once.
    static func fetchList<Entry>(_ statement: Statement, arguments: StatementArguments, _ entry: (Item, Row) throws -> Entry) throws -> [Entry] {
        let columns = try ColumnPositions(statement.columnNames)
        var entries: [Entry] = []
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { entries.append(try entry(try Item(row: row, at: columns), row)) }
        return entries
    }

    /// An item without its id, what an insert writes: what a person edits, `values`, and its
    /// household, folder, version and times.
    @dynamicMemberLookup
    public struct Draft: Encodable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        public init(row: Row) throws { try self.init(row: row, at: try ColumnPositions(Array(row.columnNames))) }

        /// A row read by column position, found once per statement (`fetchList`) rather than by name
        /// for every row. A code the enums do not know (a newer version's, or a hand-edited database)
        /// fails the read rather than the process, as a folder's unknown kind does.
        init(row: Row, at c: ColumnPositions) throws {
            householdId = row[c.householdId]
            folderId = row[c.folderId]
            guard let unit = ItemUnit(rawValue: row[c.unit]), let kind = ItemKind(rawValue: row[c.kind]) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "item \(row[c.id] as Int64) has an unknown unit or kind")
            }
            let statusCode: String? = row[c.status]
            var status: ItemStatus?
            if let statusCode {
                guard let known = ItemStatus(rawValue: statusCode) else {
                    throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "item \(row[c.id] as Int64) has an unknown status")
                }
                status = known
            }
            values = ItemValues(
                name: row[c.name], photo: row[c.photo], illustration: row[c.illustration], quantity: row[c.quantity], unit: unit, kind: kind,
                note: row[c.note], barcode: row[c.barcode], due: try row.decode(atIndex: c.due), remindAt: try row.decode(atIndex: c.remindAt), status: status,
                urgent: row[c.urgent])
            version = row[c.version]
            createdAt = try row.decode(atIndex: c.createdAt)
            updatedAt = try row.decode(atIndex: c.updatedAt)
            deletedAt = try row.decode(atIndex: c.deletedAt)
            searchText = c.searchText.map { row[$0] } ?? ""
            inBasket = c.inBasket.map { row[$0] } ?? false
            inBasketBy = c.inBasketBy.flatMap { row[$0] }
            refillQuantity = c.refillQuantity.flatMap { row[$0] }
            useStep = c.useStep.flatMap { row[$0] }
        }

        public var householdId: Household.ID
        public var folderId: Folder.ID
        public var values: ItemValues
        public var version: Int
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
        public var deletedAt: Timestamp?
        public var searchText: String = ""
        /// On a shopping list: ticked as in the basket, by whom (`Items.setInBasket`). Shopping state
        /// of the moment, cleared when the item leaves for a stock list (`Items.fit`), not exported.
        public var inBasket = false
        public var inBasketBy: Member.ID? = nil
        /// On a shopping list: how much of the row a keep rule put there (`KeepStock`), read only:
        /// the rule writes it, and saving the item never does.
        public var refillQuantity: Double? = nil
        /// What one tap of − or + changes as learned from the product's uses (`Schema.v23`), read
        /// only: triggers write it. Nil until learned; `step` is what a row uses.
        public var useStep: Double? = nil

        public init(
            householdId: Household.ID, folderId: Folder.ID, name: String, photo: String? = nil, illustration: String? = nil,
            quantity: Double = 1, unit: ItemUnit = .piece, kind: ItemKind = .other, note: String = "",
            barcode: String? = nil, due: CalendarDay? = nil, remindAt: Timestamp? = nil, status: ItemStatus? = nil,
            urgent: Bool = false, version: Int = 1, createdAt: Timestamp = .now(),
            updatedAt: Timestamp = .now(), deletedAt: Timestamp? = nil
        ) {
            self.init(
                householdId: householdId, folderId: folderId,
                values: ItemValues(
                    name: name, photo: photo, illustration: illustration, quantity: quantity, unit: unit, kind: kind, note: note, barcode: barcode,
                    due: due, remindAt: remindAt, status: status, urgent: urgent),
                version: version, createdAt: createdAt, updatedAt: updatedAt, deletedAt: deletedAt)
        }

        public init(
            householdId: Household.ID, folderId: Folder.ID, values: ItemValues, version: Int = 1, createdAt: Timestamp, updatedAt: Timestamp,
            deletedAt: Timestamp? = nil
        ) {
            self.householdId = householdId
            self.folderId = folderId
            self.values = values
            self.version = version
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.deletedAt = deletedAt
            self.searchText = SearchText.fold(values.name, values.note)
        }

        /// An edited field, `draft.name` for `draft.values.name`.
        public subscript<Value>(dynamicMember field: WritableKeyPath<ItemValues, Value>) -> Value {
            get { values[keyPath: field] }
            set { values[keyPath: field] = newValue }
        }

        private enum CodingKeys: String, CodingKey {
            case householdId, folderId, version, createdAt, updatedAt, deletedAt, searchText, inBasket, inBasketBy, nameKey
        }

        /// One row: the item's own columns and its values' beside them.
        public func encode(to encoder: any Encoder) throws {
            try values.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(householdId, forKey: .householdId)
            try container.encode(folderId, forKey: .folderId)
            try container.encode(version, forKey: .version)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encodeIfPresent(deletedAt, forKey: .deletedAt)
            try container.encode(searchText, forKey: .searchText)
            try container.encode(inBasket, forKey: .inBasket)
            try container.encodeIfPresent(inBasketBy, forKey: .inBasketBy)
            // The product a keep rule counts it as, from its name: never stale, whoever saves.
            try container.encode(KeepStock.nameKey(values.name), forKey: .nameKey)
        }

        public static let databaseTableName = "item"
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}
