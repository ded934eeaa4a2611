import Foundation

/// `household.json` inside an export: one household, lossless, with no secret in it (no password
/// hashes, sessions, invitation or reset links, calendar-feed tokens, push channel). Ids are the
/// exporting server's and only tie the parts together; an import gives everything new ids.
///
/// Versions: 1 had no recipes; 2 adds `recipes` (with ingredients and tags), `cooks` (what each
/// cooking took, so it can still be undone), the used-up choice and the cook of each history line.
/// 3 keeps the two folders of a history line's move or purchase by id (`detail` then holds only what
/// else changed). 4 adds `shelfLives`, what the household learned of how long its products keep.
/// 5 adds `keepRules` (what the household keeps in stock), where their refills go and whether
/// expired items count, and which shopping rows a rule put there. 6 adds `meals`, the meal plan.
/// 7 adds `stockUses`, the use and waste ledger the Household page and the learned − / + steps read.
/// A reader accepts every earlier version: the new parts are optional.
public struct HouseholdDocument: Codable, Sendable, Equatable {
    public static let formatName = "zaiko-household"
    public static let currentVersion = 7

    public var format: String = HouseholdDocument.formatName
    public var formatVersion: Int = HouseholdDocument.currentVersion
    public var exportedAt: Timestamp
    public var household: HouseholdPart
    public var members: [MemberPart]
    public var folders: [FolderPart]
    public var photos: [PhotoPart]
    public var items: [ItemPart]
    public var itemEvents: [ItemEventPart]
    public var products: [ProductPart]
    /// Version 2; nil in version 1 files.
    public var recipes: [RecipePart]?
    public var cooks: [CookPart]?
    /// Version 4; nil before.
    public var shelfLives: [ShelfLifePart]?
    /// Version 5; nil before.
    public var keepRules: [KeepRulePart]?
    /// Version 6; nil before.
    public var meals: [MealPart]?
    /// Version 7; nil before (a household moved then starts its habits again).
    public var stockUses: [StockUsePart]?

    public struct HouseholdPart: Codable, Sendable, Equatable {
        public var name: String
        public var timeZone: String
        public var dueSoonDays: Int
        public var language: String?
        public var productLookupUrl: String?
        public var createdAt: Timestamp
        /// Version 2: what happens to an item a cook uses up, and the shopping list it goes to.
        public var usedUp: String?
        public var usedUpFolderId: Int64?
        /// Version 5: the shopping list keep rules' refills go to, and whether expired items count.
        public var keepFolderId: Int64?
        public var keepCountsExpired: Bool?
    }

    /// A member's name and role (the history names them); the login so the operator of the new
    /// server can hand its person a password link. Never a password hash or a session.
    public struct MemberPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var login: String
        public var role: String
        public var language: String?
        public var createdAt: Timestamp
    }

    public struct FolderPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var kind: String
        public var icon: String
        public var position: Int
        public var starter: String?
        public var lastStockFolderId: Int64?
        public var createdAt: Timestamp
        public var deletedAt: Timestamp?
    }

    /// A stored photo: both sizes are files under `photos/` in the archive.
    public struct PhotoPart: Codable, Sendable, Equatable {
        public var key: String
        public var format: String
        public var createdAt: Timestamp
        public var large: String
        public var small: String
    }

    /// An item: what a person edits of it (`values`, declared once in `ItemValues` and written
    /// under its names beside the others, one flat object in the file) and what storage keeps
    /// around it. `part.name` reads `part.values.name`.
    @dynamicMemberLookup
    public struct ItemPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var folderId: Int64
        public var values: ItemValues
        /// The reminder time last sent, so a moved household does not send old reminders again.
        public var reminderSentFor: String?
        public var version: Int
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
        public var deletedAt: Timestamp?
        /// Version 5: a shopping row a keep rule put there or added to, and how much of it is the rule's.
        public var keepRuleId: Int64?
        public var refillQuantity: Double?

        public init(
            id: Int64, folderId: Int64, values: ItemValues, reminderSentFor: String?, version: Int, createdAt: Timestamp, updatedAt: Timestamp,
            deletedAt: Timestamp?, keepRuleId: Int64? = nil, refillQuantity: Double? = nil
        ) {
            (self.id, self.folderId, self.values, self.reminderSentFor) = (id, folderId, values, reminderSentFor)
            (self.version, self.createdAt, self.updatedAt, self.deletedAt) = (version, createdAt, updatedAt, deletedAt)
            (self.keepRuleId, self.refillQuantity) = (keepRuleId, refillQuantity)
        }

        public subscript<Value>(dynamicMember field: WritableKeyPath<ItemValues, Value>) -> Value {
            get { values[keyPath: field] }
            set { values[keyPath: field] = newValue }
        }

        private enum CodingKeys: String, CodingKey {
            case id, folderId, reminderSentFor, version, createdAt, updatedAt, deletedAt, keepRuleId, refillQuantity
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try container.decode(Int64.self, forKey: .id), folderId: try container.decode(Int64.self, forKey: .folderId),
                values: try ItemValues(from: decoder), reminderSentFor: try container.decodeIfPresent(String.self, forKey: .reminderSentFor),
                version: try container.decode(Int.self, forKey: .version), createdAt: try container.decode(Timestamp.self, forKey: .createdAt),
                updatedAt: try container.decode(Timestamp.self, forKey: .updatedAt),
                deletedAt: try container.decodeIfPresent(Timestamp.self, forKey: .deletedAt),
                keepRuleId: try container.decodeIfPresent(Int64.self, forKey: .keepRuleId),
                refillQuantity: try container.decodeIfPresent(Double.self, forKey: .refillQuantity))
        }

        public func encode(to encoder: any Encoder) throws {
            try values.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(folderId, forKey: .folderId)
            try container.encodeIfPresent(reminderSentFor, forKey: .reminderSentFor)
            try container.encode(version, forKey: .version)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encodeIfPresent(deletedAt, forKey: .deletedAt)
            try container.encodeIfPresent(keepRuleId, forKey: .keepRuleId)
            try container.encodeIfPresent(refillQuantity, forKey: .refillQuantity)
        }
    }

    /// One line of an item's history; `memberId` is nil when that member was removed.
    public struct ItemEventPart: Codable, Sendable, Equatable {
        public var itemId: Int64
        public var memberId: Int64?
        public var kind: String
        public var detail: String
        public var at: Timestamp
        /// Version 2: the cook that made this change.
        public var cookId: Int64?
        /// Version 3: the folders a move or a purchase went between (ids of `folders`).
        public var fromFolderId: Int64?
        public var toFolderId: Int64?
    }

    public struct ProductPart: Codable, Sendable, Equatable {
        public var barcode: String
        public var name: String
        public var photo: String?
        public var illustration: String?
        public var kind: String
        public var unit: String
        public var folderId: Int64?
        public var updatedAt: Timestamp
        /// Version 7: its shelf life in days as set by hand on its page; nil while learned.
        public var shelfLifeDays: Int?
    }

    /// One registration's shelf life (see `ShelfLife`): the days from the day it went into a stock
    /// list to its due date.
    public struct ShelfLifePart: Codable, Sendable, Equatable {
        public var productKey: String
        public var folderId: Int64?
        public var itemId: Int64?
        public var registeredOn: CalendarDay
        public var days: Int
        public var at: Timestamp
    }

    /// What the household keeps in stock of one product (see `KeepStock`).
    public struct KeepRulePart: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var nameKey: String
        public var unit: String
        public var minimum: Double
        public var refillTo: Double
        public var pack: Double
        public var kind: String
        /// A person took the rule's refill off the list: nothing is added before the stock recovers.
        public var declined: Bool
        public var createdAt: Timestamp
    }

    /// One row of the use and waste ledger (`Schema.v20`): stock that came in or left a stock list,
    /// with the item's name, unit, kind and due date then.
    public struct StockUsePart: Codable, Sendable, Equatable {
        /// The item (an id of `items`); nil once it was deleted for good.
        public var itemId: Int64?
        public var name: String
        public var nameFolded: String
        public var unit: String
        public var kind: String
        public var quantity: Double
        /// "stocked", "used", "used_up" or "trashed".
        public var event: String
        public var due: CalendarDay?
        public var at: Timestamp
    }

    /// A meal of the plan (see `MealPlan`): a recipe (by id of `recipes`) for some servings, or a note.
    public struct MealPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var day: CalendarDay
        public var slot: String
        public var position: Int
        public var recipeId: Int64?
        public var servings: Int?
        public var note: String
        /// The meal (an id of `meals`, or of one removed since) the weekly copies it belongs to share.
        public var seriesId: Int64?
        /// The cook (an id of `cooks`) that cooked it.
        public var cookId: Int64?
        /// "cooked" or "skipped"; nil while planned.
        public var done: String?
        public var memberId: Int64?
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
    }

    public struct RecipePart: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var photo: String?
        public var illustration: String?
        public var servings: Int
        public var steps: String
        public var sourceUrl: String?
        public var tags: [String]
        public var ingredients: [IngredientPart]
        public var produce: RecipeProduce?
        public var version: Int
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
        public var deletedAt: Timestamp?
    }

    /// An ingredient; a link to a remembered product is by its barcode (products have no id here).
    public struct IngredientPart: Codable, Sendable, Equatable {
        public var name: String
        public var amount: Double?
        public var unit: String?
        public var note: String
        public var productBarcode: String?
    }

    public struct CookPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var recipeId: Int64?
        public var recipeName: String
        public var memberId: Int64?
        public var servings: Int
        public var producedItemId: Int64?
        public var cookedAt: Timestamp
        public var undoneAt: Timestamp?
        public var takes: [CookTakePart]
    }

    public struct CookTakePart: Codable, Sendable, Equatable {
        public var itemId: Int64
        public var ingredientName: String
        public var amount: Double
        public var usedUp: String?
        public var fromFolderId: Int64?
        public var due: CalendarDay?
        public var remindAt: Timestamp?
        public var status: String?
    }

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
