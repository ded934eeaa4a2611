import Foundation
import GRDB
import Tagged

/// A recipe row (table `recipe`, migration v11). Ingredients and tags are rows of their own.
@dynamicMemberLookup
public struct Recipe: StoredRecord {
    public typealias ID = Tagged<Recipe, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A recipe's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        /// Decoded by hand: /recipes reads every recipe, and Codable's snake-case key conversion per
        /// column cost more than the queries (as for `Item`).
        /// By column index, in the table's order (`columns`; every query reads `SELECT *`): GRDB's
        /// look-up by name lower-cases the name on every access, and the meal plan reads every
        /// planned recipe each time the household changes.
        public init(row: Row) throws {
            householdId = try row.decode(atIndex: 1)
            name = try row.decode(atIndex: 2)
            nameFolded = try row.decode(atIndex: 3)
            photo = try row.decode(atIndex: 4)
            illustration = try row.decode(atIndex: 5)
            servings = try row.decode(atIndex: 6)
            steps = try row.decode(atIndex: 7)
            sourceUrl = try row.decode(atIndex: 8)
            produceName = try row.decode(atIndex: 9)
            produceQuantity = try row.decode(atIndex: 10)
            produceUnit = try row.decode(atIndex: 11)
            produceKind = try row.decode(atIndex: 12)
            produceDueDays = try row.decode(atIndex: 13)
            produceFolderId = try row.decode(atIndex: 14)
            version = try row.decode(atIndex: 15)
            createdAt = try row.decode(atIndex: 16)
            updatedAt = try row.decode(atIndex: 17)
            deletedAt = try row.decode(atIndex: 18)
        }

        /// The table's columns in their order, as `init(row:)` reads them (the id first).
        static let columns = [
            "id", "household_id", "name", "name_folded", "photo", "illustration", "servings", "steps", "source_url", "produce_name",
            "produce_quantity", "produce_unit", "produce_kind", "produce_due_days", "produce_folder_id", "version", "created_at", "updated_at",
            "deleted_at",
        ]

        public var householdId: Household.ID
        public var name: String
        /// `SearchText.fold(name)`, kept with the name (the text filter of /recipes).
        public var nameFolded: String
        public var photo: String?
        public var illustration: String?
        public var servings: Int
        /// Plain text; paragraphs are separated by a blank line.
        public var steps: String
        public var sourceUrl: String?
        public var produceName: String?
        public var produceQuantity: Double?
        public var produceUnit: String?
        public var produceKind: String?
        public var produceDueDays: Int?
        public var produceFolderId: Folder.ID?
        public var version: Int
        public var createdAt: Timestamp
        public var updatedAt: Timestamp
        public var deletedAt: Timestamp?

        public init(
            householdId: Household.ID, name: String, photo: String? = nil, illustration: String? = nil, servings: Int = 2,
            steps: String = "", sourceUrl: String? = nil, produce: RecipeProduce? = nil, version: Int = 1,
            createdAt: Timestamp = .now(), updatedAt: Timestamp = .now(), deletedAt: Timestamp? = nil
        ) {
            self.householdId = householdId
            self.name = name
            nameFolded = SearchText.fold(name)
            self.photo = photo
            self.illustration = illustration
            self.servings = servings
            self.steps = steps
            self.sourceUrl = sourceUrl
            self.version = version
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.deletedAt = deletedAt
            self.produce = produce
        }

        /// What cooking the recipe makes, if anything (all produce columns together; the schema's
        /// CHECKs keep the unit and kind to known codes).
        public var produce: RecipeProduce? {
            get {
                guard let produceName, let produceQuantity, let unit = produceUnit.flatMap(ItemUnit.init(rawValue:)),
                    let kind = produceKind.flatMap(ItemKind.init(rawValue:))
                else { return nil }
                return RecipeProduce(
                    name: produceName, quantity: produceQuantity, unit: unit, kind: kind, dueDays: produceDueDays, folderId: produceFolderId)
            }
            set {
                produceName = newValue?.name
                produceQuantity = newValue?.quantity
                produceUnit = newValue?.unit.rawValue
                produceKind = newValue?.kind.rawValue
                produceDueDays = newValue?.dueDays
                produceFolderId = newValue?.folderId
            }
        }

        /// What the recipe shows as its picture, if anything.
        public var picture: Picture? {
            if let photo { return .photo(photo) }
            return illustration.map(Picture.illustration)
        }

        public static let databaseTableName = "recipe"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}

/// The item a recipe makes when cooked (seed 002's juice).
public struct RecipeProduce: Codable, Sendable, Equatable {
    public var name: String
    public var quantity: Double
    public var unit: ItemUnit
    public var kind: ItemKind
    /// Due this many days after cooking; nil: no due date.
    public var dueDays: Int?
    /// The stock list it goes to; nil (or a folder gone): the first stock list.
    public var folderId: Folder.ID?

    public init(name: String, quantity: Double, unit: ItemUnit, kind: ItemKind, dueDays: Int? = nil, folderId: Folder.ID? = nil) {
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.kind = kind
        self.dueDays = dueDays
        self.folderId = folderId
    }
}

/// One ingredient of a recipe (table `recipe_ingredient`).
@dynamicMemberLookup
public struct RecipeIngredient: StoredRecord {
    public typealias ID = Tagged<RecipeIngredient, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// An ingredient's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        /// Decoded by hand and by column index, in the table's order (`columns`; every query reads
        /// `SELECT *`), as `Recipe.Draft.init(row:)`.
        public init(row: Row) throws {
            householdId = try row.decode(atIndex: 1)
            recipeId = try row.decode(atIndex: 2)
            position = try row.decode(atIndex: 3)
            name = try row.decode(atIndex: 4)
            nameFolded = try row.decode(atIndex: 5)
            amount = try row.decode(atIndex: 6)
            unit = try row.decode(atIndex: 7)
            note = try row.decode(atIndex: 8)
            productId = try row.decode(atIndex: 9)
        }

        /// The table's columns in their order, as `init(row:)` reads them (the id first).
        static let columns = ["id", "household_id", "recipe_id", "position", "name", "name_folded", "amount", "unit", "note", "product_id"]

        public var householdId: Household.ID
        public var recipeId: Recipe.ID
        /// Order on the recipe, from 0.
        public var position: Int
        public var name: String
        /// `SearchText.fold(name)`: an item matches when its folded name is the same.
        public var nameFolded: String
        /// Per the recipe's servings; nil: the ingredient only needs to be there.
        public var amount: Double?
        /// An `IngredientUnit` code; nil with an amount counts as pieces.
        public var unit: String?
        public var note: String
        /// A remembered product: matches every item with its barcode instead of by name.
        public var productId: Product.ID?

        public init(
            householdId: Household.ID, recipeId: Recipe.ID, position: Int, name: String, amount: Double? = nil, unit: String? = nil,
            note: String = "", productId: Product.ID? = nil
        ) {
            self.householdId = householdId
            self.recipeId = recipeId
            self.position = position
            self.name = name
            nameFolded = SearchText.fold(name)
            self.amount = amount
            self.unit = unit
            self.note = note
            self.productId = productId
        }

        /// The unit as a value: an unknown code reads as none.
        public var ingredientUnit: IngredientUnit? { unit.flatMap(IngredientUnit.init(rawValue:)) }

        public static let databaseTableName = "recipe_ingredient"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}

extension RecipeIngredient {
    /// How much the recipe needs, and how it compares with stock (see `IngredientNeed`).
    public func need(servings: Int, of recipeServings: Int) -> IngredientNeed {
        IngredientNeed(amount: self.amount, unit: self.ingredientUnit, scale: Double(servings) / Double(max(1, recipeServings)))
    }
}

/// A kind or tag of a recipe (table `recipe_tag`).
public struct RecipeTag: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public init(row: Row) throws {
        recipeId = row["recipe_id"]
        householdId = row["household_id"]
        tag = row["tag"]
    }

    public var recipeId: Recipe.ID
    public var householdId: Household.ID
    public var tag: String

    public init(recipeId: Recipe.ID, householdId: Household.ID, tag: String) {
        self.recipeId = recipeId
        self.householdId = householdId
        self.tag = tag
    }

    public static let databaseTableName = "recipe_tag"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
}

/// One cooking of a recipe (table `cook`); undone when `undoneAt` is set.
@dynamicMemberLookup
public struct Cook: StoredRecord {
    public typealias ID = Tagged<Cook, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A cook's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        public var householdId: Household.ID
        public var recipeId: Recipe.ID?
        public var recipeName: String
        public var memberId: Member.ID?
        public var servings: Int
        public var producedItemId: Item.ID?
        public var cookedAt: Timestamp
        public var undoneAt: Timestamp?

        public init(
            householdId: Household.ID, recipeId: Recipe.ID?, recipeName: String, memberId: Member.ID?, servings: Int,
            producedItemId: Item.ID? = nil, cookedAt: Timestamp = .now(), undoneAt: Timestamp? = nil
        ) {
            self.householdId = householdId
            self.recipeId = recipeId
            self.recipeName = recipeName
            self.memberId = memberId
            self.servings = servings
            self.producedItemId = producedItemId
            self.cookedAt = cookedAt
            self.undoneAt = undoneAt
        }

        public static let databaseTableName = "cook"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}

/// What one cook took from one item (table `cook_take`), enough to give it back.
@dynamicMemberLookup
public struct CookTake: StoredRecord {
    public enum UsedUp: String, Codable, Sendable {
        case trashed, moved
    }

    public typealias ID = Tagged<CookTake, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A take's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        public var cookId: Cook.ID
        public var itemId: Item.ID
        public var ingredientName: String
        /// In the item's own unit.
        public var amount: Double
        public var usedUp: UsedUp?
        /// A move to a shopping list drops these stock fields; the undo puts them back.
        public var fromFolderId: Folder.ID?
        public var due: CalendarDay?
        public var remindAt: Timestamp?
        public var status: String?

        public init(
            cookId: Cook.ID, itemId: Item.ID, ingredientName: String, amount: Double, usedUp: UsedUp? = nil,
            fromFolderId: Folder.ID? = nil, due: CalendarDay? = nil, remindAt: Timestamp? = nil, status: String? = nil
        ) {
            self.cookId = cookId
            self.itemId = itemId
            self.ingredientName = ingredientName
            self.amount = amount
            self.usedUp = usedUp
            self.fromFolderId = fromFolderId
            self.due = due
            self.remindAt = remindAt
            self.status = status
        }

        public static let databaseTableName = "cook_take"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}
