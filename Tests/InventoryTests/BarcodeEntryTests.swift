import Foundation
import TestSupport
import Testing

@testable import Inventory

/// A barcode as a person or a USB scanner types it, and as the reader finds it in a photo: one
/// spelling per product, whichever way it came.
@Suite("Barcodes typed and scanned")
struct BarcodeEntryTests {
    @Test func aTypedCodeIsTrimmedAndSpelledAsStored() {
        #expect(GTIN.typed("") == .empty)
        #expect(GTIN.typed("   ") == .empty)
        #expect(GTIN.typed(" 4901234567894 ") == .code("4901234567894"))
        // UPC-A and GTIN-14 with a leading 0 become EAN-13.
        #expect(GTIN.typed("036000291452") == .code("0036000291452"))
        #expect(GTIN.typed("00036000291452") == .code("0036000291452"))
        // Valid only as UPC-E, as a scanner types it: the EAN-13 of its expansion.
        #expect(GTIN.typed("06543217") == .code("0065100004327"))
        // A shop's own code has no check digit to verify and stays as typed.
        #expect(GTIN.typed("123456") == .code("123456"))
    }

    @Test func fullWidthDigitsAndSpacesFromAJapaneseInputMethodCount() {
        #expect(GTIN.typed("４９０１２３４５６７８９４") == .code("4901234567894"))
        #expect(GTIN.typed("\u{3000}０３６０００２９１４５２\u{3000}") == .code("0036000291452"))
        #expect(GTIN.typed("４９０１２３４５６７８９５") == .wrongCheckDigit)
    }

    @Test func refusedCodesSayWhy() {
        #expect(GTIN.typed("4901234567895") == .wrongCheckDigit)
        #expect(GTIN.typed("4901234567895").problem == .barcodeCheckDigit)
        #expect(GTIN.typed("12345") == .notDigits)
        #expect(GTIN.typed("123456789012345") == .notDigits)
        #expect(GTIN.typed("49012345x7894") == .notDigits)
        #expect(GTIN.typed("-4901234567894").problem == .barcodeInvalid)
        #expect(GTIN.typed("4901234567894").problem == nil)
    }

    @Test func theSameProductTypedOrScannedIsOneSpelling() {
        #expect(GTIN.scanned("036000291452", isUPCE: false) == "0036000291452")
        #expect(GTIN.scanned("4901234567894", isUPCE: false) == "4901234567894")
        // 8 digits valid as both EAN-8 and UPC-E: only the reader knows which it saw.
        #expect(GTIN.scanned("01234565", isUPCE: false) == "01234565")
        #expect(GTIN.scanned("01234565", isUPCE: true) == "0012345000065")
        #expect(GTIN.typed("06543217") == .code(GTIN.scanned("06543217", isUPCE: true)!))
    }

    @Test func aScanThatIsNoProductNumberIsNone() {
        #expect(GTIN.scanned("https://example.com/4901234567894", isUPCE: false) == nil)
        // A label whose check digit is wrong is not a product.
        #expect(GTIN.scanned("4901234567895", isUPCE: false) == nil)
        #expect(GTIN.scanned("01234566", isUPCE: true) == nil)
        #expect(GTIN.scanned("12345", isUPCE: false) == nil)
        // The reader gives ASCII; full-width text in a QR code is not a barcode.
        #expect(GTIN.scanned("４９０１２３４５６７８９４", isUPCE: false) == nil)
        #expect(GTIN.scanned("123456", isUPCE: false) == "123456")
    }

    @Test func theItemFormReadsTheBarcodeTheSameWay() {
        var input = ItemInput()
        input.name = "Milk"
        input.barcode = "０３６０００２９１４５２"
        guard case .success(let values) = ItemValidation.check(input, for: .stock, timeZone: .gmt) else {
            Issue.record("refused")
            return
        }
        #expect(values.barcode == "0036000291452")
        input.barcode = "49012345x7894"
        guard case .failure(let errors) = ItemValidation.check(input, for: .stock, timeZone: .gmt) else {
            Issue.record("accepted")
            return
        }
        #expect(errors.fields == [.barcode: .barcodeInvalid])
    }
}

/// Filling a batch of drafts from what the household learned about a barcode.
@Suite("Product memory fills drafts")
struct ProductFillTests {
    let fixture: Fixture
    let owner: SignedIn
    let items: Items
    let products: Products
    let folders: Folders
    let fridge: Folder
    let freezer: Folder
    let shopping: Folder

    init() throws {
        fixture = try Fixture()
        owner = try fixture.owner
        items = Items(database: fixture.database, clock: fixture.clock.wall)
        products = Products(database: fixture.database, clock: fixture.clock.wall)
        folders = Folders(database: fixture.database, clock: fixture.clock.wall)
        let stock = try items.folders(in: owner.household, kind: .stock)
        fridge = try #require(stock.first { $0.name == "Fridge" })
        freezer = try #require(stock.first { $0.name == "Freezer" })
        shopping = try #require(try items.folders(in: owner.household, kind: .shopping).first)
    }

    /// Saves natto with its barcode in the freezer, so the freezer is its usual folder.
    func learnNatto() throws {
        var draft = ItemInput()
        draft.name = "Natto"
        draft.kind = "prepared"
        draft.unit = "pack"
        draft.barcode = "4901234567894"
        _ = try items.register([draft], into: freezer.id!, in: owner.household, by: owner.memberId, timeZone: .gmt)
    }

    func scanned(_ barcode: String = "4901234567894") -> ItemInput {
        var draft = ItemInput()
        draft.barcode = barcode
        return draft
    }

    @Test func aKnownBarcodeFillsTheDraftAndMovesALoneDraftToItsUsualFolder() throws {
        try learnNatto()
        var drafts = [scanned()]
        var folder = fridge
        #expect(try products.fill(&drafts, at: 0, folder: &folder, in: owner.household))
        #expect((drafts[0].name, drafts[0].kind, drafts[0].unit) == ("Natto", "prepared", "pack"))
        #expect(folder.id == freezer.id)
    }

    @Test func anUnknownBarcodeFillsNothing() throws {
        try learnNatto()
        var drafts = [scanned("4006381333931")]
        var folder = fridge
        #expect(try !products.fill(&drafts, at: 0, folder: &folder, in: owner.household))
        #expect(drafts[0].name.isEmpty)
        #expect(folder.id == fridge.id)
        // Another household's memory is not this one's.
        var theirs = [scanned()]
        #expect(try !products.fill(&theirs, at: 0, folder: &folder, in: HouseholdScope(owner.household.householdId + 1)))
    }

    @Test func aDraftBesideOthersKeepsTheBatchsFolder() throws {
        try learnNatto()
        var other = ItemInput()
        other.name = "Milk"
        var drafts = [other, scanned(), ItemInput()]
        var folder = fridge
        #expect(try products.fill(&drafts, at: 1, folder: &folder, in: owner.household))
        #expect(drafts[1].name == "Natto")
        #expect(folder.id == fridge.id)
    }

    @Test func aShoppingListIsNeverLeftForTheUsualFolder() throws {
        try learnNatto()
        var drafts = [scanned()]
        var folder = shopping
        #expect(try products.fill(&drafts, at: 0, folder: &folder, in: owner.household))
        #expect(folder.id == shopping.id)
    }

    @Test func aUsualFolderInTheTrashIsNotTaken() throws {
        try learnNatto()
        // With natto in it, the freezer waits in the trash (and its items with it).
        try folders.delete(freezer.id!, in: owner.household, by: owner.memberId)
        var drafts = [scanned()]
        var folder = fridge
        #expect(try products.fill(&drafts, at: 0, folder: &folder, in: owner.household))
        #expect(drafts[0].name == "Natto")
        #expect(folder.id == fridge.id)
    }
}
