import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Deleting a recipe goes to the trash, like items: restore, purge, 30 days, and its photo kept meanwhile.
@Suite("Recipes: trash")
struct RecipesTrashTests {
    @Test func aTrashedRecipeLeavesTheOverviewAndComesBackWhenRestored() throws {
        let kitchen = try RecipeKitchen()
        let id = try kitchen.recipe("Omelette", [("Egg", 2, nil)], tags: ["breakfast"])
        try kitchen.recipes.trash(id, in: kitchen.household, by: kitchen.member)

        #expect(try kitchen.overview().recipes.isEmpty)
        #expect(try kitchen.overview().tags.isEmpty)
        #expect(throws: InventoryError.notFound) { try kitchen.detail(id) }
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.recipe(id, in: kitchen.household) }
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.trash(id, in: kitchen.household, by: kitchen.member) }
        #expect(try kitchen.recipes.trashed(in: kitchen.household).map(\.name) == ["Omelette"])

        try kitchen.recipes.restore([id], in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.overview().recipes.map(\.recipe.name) == ["Omelette"])
        #expect(try kitchen.detail(id).ingredients.map(\.ingredient.name) == ["Egg"])
        #expect(try kitchen.detail(id).tags == ["breakfast"])
        #expect(try kitchen.recipes.trashed(in: kitchen.household).isEmpty)
    }

    @Test func theTrashListsNewestFirstAndOnlyThisHouseholds() throws {
        let kitchen = try RecipeKitchen()
        let (nextDoor, _) = try kitchen.nextDoor()
        let first = try kitchen.recipe("First")
        let second = try kitchen.recipe("Second")
        let theirs = try kitchen.recipe("Theirs", in: nextDoor)
        try kitchen.recipes.trash(first, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(60)
        try kitchen.recipes.trash(second, in: kitchen.household, by: kitchen.member)
        try kitchen.recipes.trash(theirs, in: nextDoor, by: kitchen.member)
        #expect(try kitchen.recipes.trashed(in: kitchen.household).map(\.name) == ["Second", "First"])
        // Their trashed recipe can be neither restored nor purged from here, and one bad id changes nothing.
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.restore([first, theirs], in: kitchen.household, by: kitchen.member) }
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.purge([theirs], in: kitchen.household) }
        #expect(try kitchen.recipes.trashed(in: kitchen.household).count == 2)
        #expect(try kitchen.recipes.trashed(in: nextDoor).map(\.name) == ["Theirs"])
        // A recipe outside the trash is not purged.
        let kept = try kitchen.recipe("Kept")
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.purge([kept], in: kitchen.household) }
    }

    @Test func purgingDeletesTheRecipeWithItsIngredientsAndTags() throws {
        let kitchen = try RecipeKitchen()
        let id = try kitchen.recipe("Omelette", [("Egg", 2, nil), ("Milk", nil, nil)], tags: ["breakfast"])
        try kitchen.recipes.trash(id, in: kitchen.household, by: kitchen.member)
        try kitchen.recipes.purge([id], in: kitchen.household)
        let left = try kitchen.database.writer.read { db in
            try [
                Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recipe")!, Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recipe_ingredient")!,
                Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recipe_tag")!,
            ]
        }
        #expect(left == [0, 0, 0])
        #expect(try kitchen.recipes.trashed(in: kitchen.household).isEmpty)
    }

    @Test func recipesLeaveTheTrashAfterThirtyDays() throws {
        let kitchen = try RecipeKitchen()
        let old = try kitchen.recipe("Old")
        let recent = try kitchen.recipe("Recent")
        try kitchen.recipe("Kept")
        try kitchen.recipes.trash(old, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(2 * 86400)
        try kitchen.recipes.trash(recent, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(Double(Recipes.trashDays - 1) * 86400)
        #expect(try kitchen.recipes.purgeExpiredTrash(in: kitchen.household) == 1)
        #expect(try kitchen.recipes.trashed(in: kitchen.household).map(\.name) == ["Recent"])
        #expect(try kitchen.overview().recipes.map(\.recipe.name) == ["Kept"])
    }

    @Test func aRecipesPhotoStaysWhileTheRecipeIsKeptEvenInTheTrash() throws {
        let kitchen = try RecipeKitchen()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-recipes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = try PhotoStore(directory: directory, database: kitchen.database, clock: kitchen.fixture.clock.wall)
        let key = try photos.save(large: [0xFF, 0xD8, 1], small: [0xFF, 0xD8, 2], format: "jpeg", in: kitchen.household)
        let id = try kitchen.recipes.save(RecipeInput(name: "Curry", picture: .photo(key)), id: nil, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(PhotoStore.pendingGrace + 60)
        #expect(try photos.collectGarbage() == 0)
        try kitchen.recipes.trash(id, in: kitchen.household, by: kitchen.member)
        #expect(try photos.collectGarbage() == 0)
        #expect(try photos.file(key: key, size: .large, in: kitchen.household).lastPathComponent.hasPrefix(key))
        try kitchen.recipes.purge([id], in: kitchen.household)
        #expect(try photos.collectGarbage() == 2)
        #expect(throws: InventoryError.notFound) { try photos.file(key: key, size: .large, in: kitchen.household) }
    }
}
