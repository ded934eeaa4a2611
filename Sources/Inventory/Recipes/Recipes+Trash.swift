import Foundation
import GRDB

extension Recipes {
    /// To the trash: gone from /recipes and its page until restored or purged.
    public func trash(_ id: Recipe.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var recipe = try Self.recipe(db, id, scope.householdId)
            recipe.deletedAt = time
            recipe.version += 1
            try recipe.update(db)
        }
    }

    /// Back from the trash, all or none (an id not in this household's trash is `.notFound`).
    public func restore(_ ids: [Recipe.ID], in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            for id in ids {
                var recipe = try Self.recipe(db, id, scope.householdId, deleted: true)
                recipe.deletedAt = nil
                recipe.version += 1
                recipe.updatedAt = time
                try recipe.update(db)
            }
        }
    }

    /// Deletes recipes in the trash for good; their ingredients and tags go with them.
    public func purge(_ ids: [Recipe.ID], in scope: HouseholdScope) throws {
        try database.write(by: nil, at: stamp()) { db in
            for id in ids { _ = try Self.recipe(db, id, scope.householdId, deleted: true).delete(db) }
        }
    }

    /// The household's recipes in the trash, the most recently trashed first.
    public func trashed(in scope: HouseholdScope) throws -> [Recipe] {
        try database.writer.read { db in try Self.trashed(db, scope.householdId) }
    }

    static func trashed(_ db: Database, _ householdId: Household.ID) throws -> [Recipe] {
        try Recipe.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM recipe WHERE household_id = ? AND deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC"),
            arguments: [householdId])
    }

    /// Recipes more than `trashDays` days in the trash leave it, as items do; returns how many.
    @discardableResult
    public func purgeExpiredTrash(in scope: HouseholdScope) throws -> Int {
        let now = stamp()
        let limit = now.adding(seconds: -Int64(Self.trashDays) * 86400)
        return try database.write(by: nil, at: now) { db in
            try db.execute(
                sql: "DELETE FROM recipe WHERE household_id = ? AND deleted_at IS NOT NULL AND deleted_at < ?", arguments: [scope.householdId, limit])
            return db.changesCount
        }
    }
}
