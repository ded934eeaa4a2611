import Foundation

/// `household.json` inside an export: one household, lossless, with no secret in it (no password
/// hashes, sessions, invitation or reset links, calendar-feed tokens, push channel). Ids are the
/// exporting server's and only tie the parts together; an import gives everything new ids.
///
/// Versions: 1 had no recipes; 2 adds `recipes` (with ingredients and tags), `cooks` (what each
/// cooking took, so it can still be undone), the used-up choice and the cook of each history line.
/// 3 keeps the two folders of a history line's move or purchase by id (`detail` then holds only what
/// else changed). A reader accepts every earlier version: the new parts are optional.
public struct HouseholdDocument: Codable, Sendable, Equatable {
    public static let formatName = "zaiko-household"
    public static let currentVersion = 3

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

    public struct ItemPart: Codable, Sendable, Equatable {
        public var id: Int64
        public var folderId: Int64
        public var name: String
        public var photo: String?
        public var illustration: String?
        public var quantity: Double
        public var unit: String
        public var kind: String
        public var note: String
        public var barcode: String?
        public var due: CalendarDay?
        public var remindAt: Timestamp?
        /// The reminder time last sent, so a moved household does not send old reminders again.
        public var reminderSentFor: String?
        public var status: String?
        public var urgent: Bool
        public var version: Int
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
        public var deletedAt: Timestamp?
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
