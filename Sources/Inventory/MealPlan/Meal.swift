import Foundation
import GRDB
import Tagged

/// The meals of a day, in the order a day has them.
public enum MealSlot: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case breakfast, lunch, dinner, other

    /// Their order within a day, as SQL over `slot`.
    static let orderSQL = "CASE slot WHEN 'breakfast' THEN 0 WHEN 'lunch' THEN 1 WHEN 'dinner' THEN 2 ELSE 3 END"
}

/// What became of a planned meal.
public enum MealDone: String, Codable, Sendable, DatabaseValueConvertible {
    /// Cooked from the plan: the meal names its cook.
    case cooked
    /// Not cooked, and not to be: it reserves nothing.
    case skipped
}

/// One meal of the plan (table `meal`, migration v21): a recipe for some servings, or a free note
/// ("eat out", "leftovers").
@dynamicMemberLookup
public struct Meal: StoredRecord {
    public typealias ID = Tagged<Meal, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A meal's fields, without its id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        /// Decoded by hand and by column index: a plan page reads every meal of its days, and
        /// Codable's snake-case key conversion, then GRDB's look-up by name (which lower-cases
        /// the name on every access), cost more than the page's queries. Every query reads the
        /// table's columns first and in the table's order (`SELECT *`, `m.*`), `columns`.
        public init(row: Row) throws {
            householdId = try row.decode(atIndex: 1)
            day = try row.decode(atIndex: 2)
            slot = try row.decode(atIndex: 3)
            position = try row.decode(atIndex: 4)
            recipeId = try row.decode(atIndex: 5)
            servings = try row.decode(atIndex: 6)
            note = try row.decode(atIndex: 7)
            seriesId = try row.decode(atIndex: 8)
            cookId = try row.decode(atIndex: 9)
            done = try row.decode(atIndex: 10)
            memberId = try row.decode(atIndex: 11)
            createdAt = try row.decode(atIndex: 12)
            updatedAt = try row.decode(atIndex: 13)
        }

        /// The table's columns in their order, as `init(row:)` reads them (the id first).
        static let columns = [
            "id", "household_id", "day", "slot", "position", "recipe_id", "servings", "note", "series_id", "cook_id", "done", "member_id",
            "created_at", "updated_at",
        ]

        public init(
            householdId: Household.ID, day: CalendarDay, slot: MealSlot, position: Int, recipeId: Recipe.ID?, servings: Int?, note: String,
            seriesId: Meal.ID?, cookId: Cook.ID?, done: MealDone?, memberId: Member.ID?, createdAt: Timestamp, updatedAt: Timestamp
        ) {
            self.householdId = householdId
            self.day = day
            self.slot = slot
            self.position = position
            self.recipeId = recipeId
            self.servings = servings
            self.note = note
            self.seriesId = seriesId
            self.cookId = cookId
            self.done = done
            self.memberId = memberId
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }

        public var householdId: Household.ID
        public var day: CalendarDay
        public var slot: MealSlot
        /// Order within the day's slot, from 0.
        public var position: Int
        /// nil: a note.
        public var recipeId: Recipe.ID?
        /// With a recipe: how many it is cooked for.
        public var servings: Int?
        public var note: String
        /// A meal planned weekly: the first meal's id, shared by its copies.
        public var seriesId: Meal.ID?
        public var cookId: Cook.ID?
        public var done: MealDone?
        /// Who planned it.
        public var memberId: Member.ID?
        public var createdAt: Timestamp
        public var updatedAt: Timestamp

        public static let databaseTableName = "meal"
        public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    }
}

/// A meal as a person asks for it, every field as typed: `MealPlan` checks it and says what is
/// wrong beside which field.
public struct MealInput: Sendable, Equatable {
    public var day: String
    public var slot: String
    /// A recipe's id, or empty for a note.
    public var recipe: String
    /// Empty: the recipe's own servings.
    public var servings: String
    public var note: String

    public init(day: String, slot: String, recipe: String = "", servings: String = "", note: String = "") {
        self.day = day
        self.slot = slot
        self.recipe = recipe
        self.servings = servings
        self.note = note
    }
}

/// One meal of a planned day with how it stands against the stock.
public struct PlannedMeal: Sendable {
    public let meal: Meal
    /// The recipe's name; nil for a note.
    public let recipeName: String?
    public let state: State
    /// What its day lacks after earlier meals took their share (planned meals only).
    public let shortfalls: [Shortfall]
    /// Ingredients the stock would cover but for being past its date by the meal's day.
    public let expiredByThen: [String]

    public enum State: Sendable, Equatable {
        /// A free note: nothing to reserve.
        case note
        /// To cook on a day to come (or today): it reserves its ingredients.
        case planned
        /// Its day has passed and nobody said what became of it: cooked, skipped, or moved?
        case overdue
        case cooked
        case skipped
        /// Its recipe is in the trash: it reserves nothing until restored.
        case recipeInTrash
    }

    /// Planned and short of nothing.
    public var isCovered: Bool { state == .planned && shortfalls.isEmpty && expiredByThen.isEmpty }
}

/// The days of a plan page, each with its meals in the order of the day.
public struct PlanDays: Sendable {
    public let days: [(day: CalendarDay, meals: [PlannedMeal])]
}
