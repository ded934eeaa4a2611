import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A household with a photo folder in a fresh temporary directory, removed when the test is done.
private final class Pantry {
    let fixture: Fixture
    let owner: SignedIn
    let items: Items
    let products: Products
    let photos: PhotoStore
    let folder: Folder.ID
    let utc = TimeZone(identifier: "UTC")!

    init() throws {
        fixture = try Fixture()
        owner = try fixture.owner
        items = Items(database: fixture.database, clock: fixture.clock.wall)
        products = Products(database: fixture.database, clock: fixture.clock.wall)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-photos-\(UUID().uuidString)")
        photos = try PhotoStore(directory: directory, database: fixture.database, clock: fixture.clock.wall)
        folder = try #require(try items.folders(in: owner.household, kind: .stock).first?.id)
    }

    deinit { try? FileManager.default.removeItem(at: photos.directory) }

    var household: HouseholdScope { owner.household }

    func savePhoto(household: HouseholdScope? = nil) throws -> String {
        try photos.save(large: [0xFF, 0xD8, 1, 2, 3], small: [0xFF, 0xD8, 4], format: "jpeg", in: household ?? self.household)
    }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: photos.directory.path)) ?? []).sorted()
    }

    func draft(_ name: String, barcode: String = "", picture: String = "") -> ItemInput {
        var input = ItemInput()
        input.name = name
        input.barcode = barcode
        input.picture = picture
        return input
    }
}

@Suite("Photos on disk")
struct PhotoStoreTests {
    @Test func savedPhotoHasBothFilesAndARow() throws {
        let pantry = try Pantry()
        let key = try pantry.savePhoto()
        #expect(PhotoStore.isWellFormedKey(key))
        #expect(pantry.files() == ["\(key)-128.jpg", "\(key)-512.jpg"])
        let large = try pantry.photos.file(key: key, size: .large, in: pantry.household)
        #expect(try Data(contentsOf: large) == Data([0xFF, 0xD8, 1, 2, 3]))
    }

    @Test func anotherHouseholdsPhotoIsNotFound() throws {
        let pantry = try Pantry()
        let key = try pantry.savePhoto()
        #expect(throws: InventoryError.notFound) { try pantry.photos.file(key: key, size: .small, in: HouseholdScope(pantry.household.householdId + 1)) }
        #expect(throws: InventoryError.notFound) { try pantry.photos.file(key: "../../etc/passwd", size: .small, in: pantry.household) }
    }

    @Test func anItemCannotPointAtAnotherHouseholdsPhoto() throws {
        let pantry = try Pantry()
        let other = try Accounts(database: pantry.fixture.database).createHousehold(name: "Next door")
        _ = other
        let otherHousehold = try #require(
            try pantry.fixture.database.writer.read { db in
                try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Next door'").map(HouseholdScope.init)
            })
        let foreign = try pantry.savePhoto(household: otherHousehold)
        #expect(throws: ItemFormErrors([0: [.picture: .pictureInvalid]])) {
            try pantry.items.register(
                [pantry.draft("Milk", picture: "photo:\(foreign)")], into: pantry.folder,
                in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        }
    }

    @Test func unusedPhotosGoAfterTheGraceAndUsedOnesStay() throws {
        let pantry = try Pantry()
        let used = try pantry.savePhoto()
        let pending = try pantry.savePhoto()
        _ = try pantry.items.register(
            [pantry.draft("Milk", picture: "photo:\(used)")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        #expect(try pantry.photos.collectGarbage() == 0)
        #expect(pantry.files().count == 4)

        pantry.fixture.clock.advance(PhotoStore.pendingGrace + 60)
        #expect(try pantry.photos.collectGarbage() == 2)
        #expect(pantry.files() == ["\(used)-128.jpg", "\(used)-512.jpg"])
        #expect(throws: InventoryError.notFound) { try pantry.photos.file(key: pending, size: .large, in: pantry.household) }
    }

    /// What `zaiko serve` runs: a pass every hour (the test's timer says when), none once stopped.
    @Test func theCleanerRemovesUnusedPhotosEachHourUntilStopped() async throws {
        let pantry = try Pantry()
        let unused = try pantry.savePhoto()
        let timer = ManualTimer()
        let cleaner = PhotoCleaner(store: pantry.photos, sleep: timer.sleep)
        try await running(cleaner) {
            try await eventually("the cleaner sleeps") { timer.isAsleep }
            #expect(pantry.files().count == 2)
            pantry.fixture.clock.advance(PhotoStore.pendingGrace + 60)
            #expect(timer.fire())
            try await eventually("the cleaner made a pass") { timer.sleeps == 2 && timer.isAsleep }
            #expect(pantry.files().isEmpty)
            #expect(throws: InventoryError.notFound) { try pantry.photos.file(key: unused, size: .large, in: pantry.household) }
        }
        #expect(timer.durations == [.seconds(3600), .seconds(3600)])
        #expect(!timer.isAsleep)
        #expect(!timer.fire())
    }

    @Test func aPhotoInTheTrashStaysUntilPurged() throws {
        let pantry = try Pantry()
        let key = try pantry.savePhoto()
        let ids = try pantry.items.register(
            [pantry.draft("Milk", picture: "photo:\(key)")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        try pantry.items.trash(ids, in: pantry.household, by: pantry.owner.memberId)
        pantry.fixture.clock.advance(PhotoStore.pendingGrace + 60)
        #expect(try pantry.photos.collectGarbage() == 0)
        try pantry.items.purge(ids, in: pantry.household)
        #expect(try pantry.photos.collectGarbage() == 2)
        #expect(pantry.files().isEmpty)
    }

    @Test func aProductKeepsItsPhotoAfterTheItemIsGone() throws {
        let pantry = try Pantry()
        let key = try pantry.savePhoto()
        let ids = try pantry.items.register(
            [pantry.draft("Oat milk", barcode: "4901234567894", picture: "photo:\(key)")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        try pantry.items.trash(ids, in: pantry.household, by: pantry.owner.memberId)
        try pantry.items.purge(ids, in: pantry.household)
        pantry.fixture.clock.advance(PhotoStore.pendingGrace + 60)
        #expect(try pantry.photos.collectGarbage() == 0)
        let product = try #require(try pantry.products.product(barcode: "4901234567894", in: pantry.household))
        try pantry.products.forget(product.id, in: pantry.household)
        #expect(try pantry.photos.collectGarbage() == 2)
    }

    @Test func orphanFilesAndTemporaryFilesGoAtStart() throws {
        let pantry = try Pantry()
        let key = try pantry.savePhoto()
        // What a crash leaves: a half-written temporary file and a renamed file whose row never committed.
        try Data([1, 2]).write(to: pantry.photos.directory.appendingPathComponent(".tmp-0123456789abcdef"))
        try Data([1, 2]).write(to: pantry.photos.directory.appendingPathComponent("0123456789abcdef0123456789abcdef-512.jpg"))
        #expect(try pantry.photos.collectGarbage() == 0, "young orphans may be a save in progress")
        #expect(try pantry.photos.collectGarbage(everyOrphan: true) == 2)
        #expect(pantry.files() == ["\(key)-128.jpg", "\(key)-512.jpg"])
    }

    @Test func aFailedWriteLeavesNoFileAndNoRow() throws {
        let pantry = try Pantry()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: pantry.photos.directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: pantry.photos.directory.path) }
        // root ignores directory permissions; the check only means something for other users.
        if getuid() != 0 {
            #expect(throws: PhotoStoreError.self) { try pantry.savePhoto() }
            #expect(pantry.files().isEmpty)
            #expect(try pantry.fixture.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") } == 0)
        }
    }
}

@Suite("Product memory")
struct ProductMemoryTests {
    @Test func savingAnItemWithABarcodeTeachesTheHousehold() throws {
        let pantry = try Pantry()
        var draft = pantry.draft("Natto", barcode: "4901234567894", picture: "illustration:natto")
        draft.kind = "prepared"
        draft.unit = "pack"
        _ = try pantry.items.register([draft], into: pantry.folder, in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        let product = try #require(try pantry.products.product(barcode: "4901234567894", in: pantry.household))
        #expect(product.name == "Natto")
        #expect(product.picture == .illustration("natto"))
        #expect(product.kind == .prepared)
        #expect(product.unit == .pack)
        #expect(product.folderId == pantry.folder)

        var next = ItemInput()
        next.barcode = "4901234567894"
        next.fill(from: product)
        #expect(next.name == "Natto" && next.kind == "prepared" && next.unit == "pack" && next.picture == "illustration:natto")
    }

    @Test func theUsualFolderIsAStockListNeverTheShoppingListItWasBoughtFrom() throws {
        let pantry = try Pantry()
        _ = try pantry.items.register(
            [pantry.draft("Milk", barcode: "4901234567894")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        let shopping = try #require(try pantry.items.folders(in: pantry.household, kind: .shopping).first?.id)
        _ = try pantry.items.register(
            [pantry.draft("Milk", barcode: "4901234567894")], into: shopping,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        #expect(try pantry.products.product(barcode: "4901234567894", in: pantry.household)?.folderId == pantry.folder)
    }

    @Test func theLatestSaveWinsAndOtherHouseholdsDoNotSeeIt() throws {
        let pantry = try Pantry()
        let ids = try pantry.items.register(
            [pantry.draft("Natto", barcode: "4901234567894")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        var edit = pantry.draft("Kotsubu natto", barcode: "4901234567894")
        edit.kind = "prepared"
        try pantry.items.update(
            ids[0], with: edit, folderId: pantry.folder, version: 1, in: pantry.household,
            by: pantry.owner.memberId, timeZone: pantry.utc)
        #expect(try pantry.products.product(barcode: "4901234567894", in: pantry.household)?.name == "Kotsubu natto")
        #expect(try pantry.products.all(in: pantry.household).count == 1)
        #expect(try pantry.products.product(barcode: "4901234567894", in: HouseholdScope(pantry.household.householdId + 1)) == nil)
    }

    @Test func correctingAndForgetting() throws {
        let pantry = try Pantry()
        _ = try pantry.items.register(
            [pantry.draft("Mlik", barcode: "4901234567894")], into: pantry.folder,
            in: pantry.household, by: pantry.owner.memberId, timeZone: pantry.utc)
        let product = try #require(try pantry.products.all(in: pantry.household).first)
        #expect(throws: InventoryError.validation(["name": .itemNameRequired])) {
            try pantry.products.update(product.id, name: " ", kind: "dairy_eggs", unit: "bottle", folderId: nil, picture: nil, in: pantry.household)
        }
        #expect(throws: InventoryError.notFound) {
            try pantry.products.update(
                product.id, name: "Milk", kind: "dairy_eggs", unit: "bottle", folderId: nil, picture: nil, in: HouseholdScope(pantry.household.householdId + 1))
        }
        try pantry.products.update(
            product.id, name: "Milk", kind: "dairy_eggs", unit: "bottle", folderId: nil, picture: .illustration("milk"), in: pantry.household)
        let corrected = try pantry.products.product(product.id, in: pantry.household)
        #expect(corrected.name == "Milk" && corrected.unit == .bottle && corrected.picture == .illustration("milk") && corrected.folderId == nil)
        #expect(throws: InventoryError.notFound) { try pantry.products.forget(product.id, in: HouseholdScope(pantry.household.householdId + 1)) }
        try pantry.products.forget(product.id, in: pantry.household)
        #expect(try pantry.products.all(in: pantry.household).isEmpty)
    }
}

@Suite("Pictures and barcodes in the item form")
struct PictureValidationTests {
    @Test func pictureValues() {
        #expect(Picture(formValue: "illustration:milk") == .illustration("milk"))
        #expect(Picture(formValue: "illustration:../../x") == nil)
        #expect(Picture(formValue: "photo:0123456789abcdef0123456789abcdef") == .photo("0123456789abcdef0123456789abcdef"))
        #expect(Picture(formValue: "photo:../0123456789abcdef0123456789ab") == nil)
        #expect(Picture(formValue: "photo:0123456789ABCDEF0123456789ABCDEF") == nil)
        #expect(Picture(formValue: "https://example.com/x.jpg") == nil)
        #expect(Illustrations.all.count >= 30)
    }

    @Test func anUnknownPictureIsAFieldError() {
        var input = ItemInput()
        input.name = "Milk"
        input.picture = "illustration:unicorn"
        guard case .failure(let errors) = ItemValidation.check(input, for: .stock, timeZone: .gmt) else {
            Issue.record("accepted")
            return
        }
        #expect(errors.fields == [.picture: .pictureInvalid])
    }

    @Test func checkDigits() {
        for valid in ["4901234567894", "036000291452", "96385074", "01234565", "04210009", "10614141000415"] {
            #expect(GTIN.isValid(valid), "\(valid)")
        }
        for invalid in ["4901234567895", "036000291453", "96385075", "0421000x", "123"] {
            #expect(!GTIN.isValid(invalid), "\(invalid)")
        }
        var input = ItemInput()
        input.name = "Milk"
        input.barcode = "4901234567895"
        guard case .failure(let errors) = ItemValidation.check(input, for: .stock, timeZone: .gmt) else {
            Issue.record("accepted")
            return
        }
        #expect(errors.fields == [.barcode: .barcodeCheckDigit])
        input.barcode = "123456" // a shop's own code: no check digit to verify
        guard case .success = ItemValidation.check(input, for: .stock, timeZone: .gmt) else {
            Issue.record("refused")
            return
        }
    }

    @Test func theDemoHouseholdUsesOnlyIllustrationsThatExist() {
        #expect(Set(DemoHousehold.illustrations.values).isSubset(of: Illustrations.slugs))
    }

    @Test func aDraftWithOnlyAPictureIsNotBlank() {
        var input = ItemInput()
        input.picture = "illustration:milk"
        #expect(!input.isBlank)
    }
}
