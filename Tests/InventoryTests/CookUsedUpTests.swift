import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The household's choice for used-up items, as Settings sets it.
struct CookUsedUpTests {
    func stored(_ kitchen: CookKitchen) throws -> (String, Int64?) {
        let household = try HouseholdSettings(database: kitchen.database).household(kitchen.household)
        return (household.usedUp, household.usedUpFolderId)
    }

    @Test func theChoiceAndItsShoppingListAreStored() throws {
        let kitchen = try CookKitchen()
        #expect(try stored(kitchen) == ("trash", nil))
        let list = try kitchen.folder(.shopping)
        try kitchen.cooking.setUsedUp("shopping", folderId: list, in: kitchen.household)
        #expect(try stored(kitchen) == ("shopping", list))
        try kitchen.cooking.setUsedUp("trash", folderId: nil, in: kitchen.household)
        #expect(try stored(kitchen) == ("trash", nil))
    }

    @Test func anUnknownChoiceAStockListOrAnotherHouseholdsListIsRefused() throws {
        let kitchen = try CookKitchen()
        #expect(throws: InventoryError.validation(["used_up": .usedUpInvalid])) {
            try kitchen.cooking.setUsedUp("eat", folderId: nil, in: kitchen.household)
        }
        #expect(throws: InventoryError.validation(["used_up_folder": .folderNotShopping])) {
            try kitchen.cooking.setUsedUp("shopping", folderId: try kitchen.folder(.stock), in: kitchen.household)
        }
        let theirs = try kitchen.fixture.firstFolder(.shopping, in: try kitchen.nextDoor())
        #expect(throws: InventoryError.notFound) { try kitchen.cooking.setUsedUp("shopping", folderId: theirs, in: kitchen.household) }
        #expect(try stored(kitchen) == ("trash", nil))
    }
}
