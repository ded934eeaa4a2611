import CGD
import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// Files as the HTTP core hands them over: already on disk under a temporary name.
enum UploadFixtures {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-upload-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func file(_ field: String, _ bytes: [UInt8], name: String = "photo.jpg", type: String? = "image/jpeg") throws -> UploadedFile {
        let url = folder.appendingPathComponent(UUID().uuidString)
        try Data(bytes).write(to: url)
        return UploadedFile(fieldName: field, clientFileName: name, declaredContentType: type, temporaryURL: url, size: bytes.count)
    }

    /// A JPEG of `width`×`height`, red on the left half and blue on the right.
    static func jpeg(_ width: Int = 800, _ height: Int = 600) -> [UInt8] {
        let image = gdImageCreateTrueColor(Int32(width), Int32(height))!
        defer { gdImageDestroy(image) }
        gdImageFilledRectangle(image, 0, 0, Int32(width / 2), Int32(height - 1), 0xFF0000)
        gdImageFilledRectangle(image, Int32(width / 2), 0, Int32(width - 1), Int32(height - 1), 0x0000FF)
        var size: Int32 = 0
        let data = gdImageJpegPtr(image, &size, 85)!
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// A PNG whose header says 20000×20000: a few bytes that would take 1.6 GB decoded.
    static func pixelBomb() -> [UInt8] {
        var ihdr: [UInt8] = []
        for value in [20000, 20000] { ihdr += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        ihdr += [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let length = data.count
        let crc = crc32(body)
        return [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// A barcode image made by Debian's `zint` (a TEST_PACKAGES tool).
    static func barcode(_ digits: String, symbology: String = "13") throws -> [UInt8] {
        let out = folder.appendingPathComponent("\(UUID().uuidString).png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
        process.arguments = ["-b", symbology, "--scale=3", "-o", out.path, "-d", digits]
        try process.run()
        process.waitUntilExit()
        return [UInt8](try Data(contentsOf: out))
    }
}

@Suite("Pictures and barcodes over HTTP")
struct PictureUploadTests {
    func photoFiles(_ fixture: HouseholdFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.app.photos.directory.path)) ?? []).sorted()
    }

    func draftForm(_ fixture: HouseholdFixture, name: String = "Cabbage", action: String = "save") -> [(String, String)] {
        [
            ("folder", "\(fixture.fridgeId)"), ("d0.name", name), ("d0.quantity", "1"), ("d0.unit", "piece"), ("d0.kind", "vegetables"),
            ("d0.status", "unopened"), ("action", action),
        ]
    }

    @Test func aPhotoInTheEditorIsStoredSquaredAndServedOnlyToItsHousehold() async throws {
        let fixture = try await HouseholdFixture()
        let before = photoFiles(fixture)
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: draftForm(fixture),
            files: [try UploadFixtures.file("d0.photo_file", UploadFixtures.jpeg(), name: "../../IMG_0001.jpg")])
        #expect(response.status == 303)
        let added = Set(photoFiles(fixture)).subtracting(before)
        #expect(added.count == 2, "\(added)")
        #expect(added.allSatisfy { $0.range(of: "^[0-9a-f]{32}-(512|128)\\.(jpg|webp)$", options: .regularExpression) != nil })

        let item = try #require(
            try fixture.items.page(
                of: try fixture.items.folder(fixture.fridgeId, in: try fixture.accounts.session(token: fixture.owner)!.household),
                filter: ListFilter(), page: 1
            ).items.first { $0.name == "Cabbage" })
        let key = try #require(item.photo)
        let served = try fixture.send("GET", "/photos/\(key)/512", as: fixture.viewer)
        #expect(served.status == 200)
        #expect(served.header("Content-Type")?.hasPrefix("image/") == true)
        #expect(served.header("Cache-Control")?.contains("private") == true)
        #expect(served.header("ETag") != nil)
        let etag = try #require(served.header("ETag"))
        #expect(try fixture.send("GET", "/photos/\(key)/512", as: fixture.viewer, headers: [("If-None-Match", etag)]).status == 304)
        #expect(try fixture.send("GET", "/photos/\(key)/512", as: fixture.otherOwner).status == 404)
        #expect(try fixture.send("GET", "/photos/\(key)/300", as: fixture.owner).status == 404)
        // The list shows it.
        #expect(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.owner).text.contains("/photos/\(key)/128"))
    }

    /// Each hostile file gets its message beside the photo field, keeps the form, and leaves nothing behind.
    static let hostile: [String: (bytes: [UInt8], fileName: String, type: String, messageKey: String)] = [
        "text named .jpg": (Array("just some text, honestly".utf8), "notes.jpg", "image/jpeg", "photo_not_image"),
        "SVG with script": (
            Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8), "x.svg", "image/svg+xml", "photo_not_image"
        ),
        "HTML sent as PNG": (Array("<!doctype html><html><body><script>alert(1)</script></body></html>".utf8), "x.png", "image/png", "photo_not_image"),
        "truncated JPEG": (Array(UploadFixtures.jpeg().prefix(700)), "cut.jpg", "image/jpeg", "photo_damaged"),
        "pixel bomb": (UploadFixtures.pixelBomb(), "bomb.png", "image/png", "photo_too_large"),
        "empty file": ([], "empty.jpg", "image/jpeg", "photo_empty"),
    ]

    @Test(arguments: hostile.keys.sorted())
    func hostileUploadsAreRefusedWithAMessageAndLeaveNothing(_ name: String) async throws {
        let (bytes, fileName, type, key) = try #require(Self.hostile[name])
        let fixture = try await HouseholdFixture()
        let before = photoFiles(fixture)
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: draftForm(fixture, name: "Kept name"),
            files: [try UploadFixtures.file("d0.photo_file", bytes, name: fileName, type: type)])
        #expect(response.status == 422, "\(name)")
        let page = response.text
        let message = try #require(fixture.app.renderer.localizations.catalogs["en"])[named: key]
        #expect(page.contains(HTMLEscaped(message)), "\(name): \(key)")
        #expect(page.contains("value=\"Kept name\""), "\(name): the form keeps what was typed")
        #expect(photoFiles(fixture) == before, "\(name): nothing left on disk")
        #expect(!(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.owner).text.contains("Kept name")), "\(name): nothing saved")
    }

    @Test func oddFileNamesNeverReachThePath() async throws {
        let fixture = try await HouseholdFixture()
        for name in ["../../../etc/passwd.jpg", "a\u{0}b.jpg", String(repeating: "名", count: 1400) + ".jpg"] {
            let before = Set(photoFiles(fixture))
            let response = try fixture.send(
                "POST", "/items/new", as: fixture.member, form: draftForm(fixture, name: "Odd \(name.count)"),
                files: [try UploadFixtures.file("d0.photo_file", UploadFixtures.jpeg(64, 64), name: name)])
            #expect(response.status == 303)
            let added = Set(photoFiles(fixture)).subtracting(before)
            #expect(added.count == 2 && added.allSatisfy { $0.count < 45 }, "\(added)")
        }
    }

    @Test func aPhotoSurvivesAFormShownAgainForAnotherDraftsProblem() async throws {
        let fixture = try await HouseholdFixture()
        var form = draftForm(fixture, name: "Leek")
        form += [
            ("d1.name", ""), ("d1.note", "a draft with content but no name"), ("d1.quantity", "1"), ("d1.unit", "piece"), ("d1.kind", "other"),
            ("d1.status", "unopened"),
        ]
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: form,
            files: [try UploadFixtures.file("d0.photo_file", UploadFixtures.jpeg())])
        #expect(response.status == 422)
        let page = response.text
        let key = try #require(page.firstMatch(of: /value="photo:([0-9a-f]{32})" checked/)?.1)
        // Sent again without the file: the kept photo goes with the item.
        var again = draftForm(fixture, name: "Leek")
        again.append(("d0.picture", "photo:\(key)"))
        #expect(try fixture.send("POST", "/items/new", as: fixture.member, form: again).status == 303)
        #expect(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.owner).text.contains("/photos/\(key)/128"))
    }

    @Test func anotherHouseholdsPhotoKeyInAFormIsRefused() async throws {
        let fixture = try await HouseholdFixture()
        var form = draftForm(fixture, name: "Thief")
        let grandparents = try fixture.accounts.session(token: fixture.otherOwner)!.household
        let theirs = try fixture.app.photos.save(large: [1], small: [2], format: "jpeg", in: grandparents)
        form.append(("d0.picture", "photo:\(theirs)"))
        let response = try fixture.send("POST", "/items/new", as: fixture.member, form: form)
        #expect(response.status == 422)
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.pictureInvalid])))
    }

    @Test func everyIllustrationHasItsDrawingAndANameInEveryLanguage() async throws {
        let fixture = try await HouseholdFixture()
        for slug in Illustrations.slugs {
            let svg = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/illustrations/\(slug).svg"), encoding: .utf8)
            #expect(svg.hasPrefix("<svg") && !svg.contains("<script") && !svg.contains("href"), "\(slug)")
            for (code, catalog) in fixture.app.renderer.localizations.catalogs {
                #expect(catalog[.illustration, slug] != "illustration_\(slug)", "\(code): \(slug)")
            }
        }
    }

    @Test func anIllustrationIsAPicture() async throws {
        let fixture = try await HouseholdFixture()
        var form = draftForm(fixture, name: "Natto")
        form.append(("d0.picture", "illustration:natto"))
        #expect(try fixture.send("POST", "/items/new", as: fixture.member, form: form).status == 303)
        #expect(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.owner).text.contains("/static/illustrations/natto.svg"))
    }

    @Test func aScannedBarcodeFillsANewDraftAndTheSecondScanFillsItFromMemory() async throws {
        let fixture = try await HouseholdFixture()
        let image = try UploadFixtures.barcode("4901234567894")
        // The milk of the fixture was saved with this barcode: the household knows it.
        var form = draftForm(fixture, name: "Carrot", action: "scan")
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: form, files: [try UploadFixtures.file("scan_file", image, name: "scan.png")])
        #expect(response.status == 200)
        let page = response.text
        #expect(page.contains("value=\"Carrot\""), "the first draft is kept")
        #expect(page.contains("name=\"d1.barcode\" type=\"text\" value=\"4901234567894\""), "a new draft holds the code")
        #expect(page.contains("name=\"d1.name\" type=\"text\" value=\"Milk\""), "filled from product memory")

        form = draftForm(fixture, name: "", action: "scan")
        let unknown = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: form,
            files: [try UploadFixtures.file("scan_file", try UploadFixtures.barcode("036000291452", symbology: "34"), name: "scan.png")])
        #expect(unknown.text.contains("value=\"0036000291452\""), "UPC-A is kept as its EAN-13, as a typed one is")
    }

    @Test func scanningOnAShoppingListStaysOnTheShoppingList() async throws {
        let fixture = try await HouseholdFixture()
        let home = try fixture.accounts.session(token: fixture.owner)!.household
        let shopping = try #require(try fixture.items.folders(in: home, kind: .shopping).first?.id)
        let form = [("folder", "\(shopping)"), ("d0.name", ""), ("d0.quantity", "1"), ("d0.unit", "piece"), ("d0.kind", "other"), ("action", "scan")]
        let page = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: form,
            files: [try UploadFixtures.file("scan_file", try UploadFixtures.barcode("4901234567894"), name: "scan.png")]
        ).text
        #expect(page.contains("value=\"Milk\""), "filled from memory")
        #expect(page.contains("<option value=\"\(shopping)\" selected>"), "still the shopping list")
    }

    @Test func aLabelWithAWrongCheckDigitIsNotAProductNumber() async throws {
        let fixture = try await HouseholdFixture()
        let form = [
            ("folder", "\(fixture.fridgeId)"), ("d0.name", ""), ("d0.quantity", "1"), ("d0.unit", "piece"), ("d0.kind", "other"),
            ("d0.status", "unopened"), ("action", "scan"),
        ]
        // Code 128 holding 13 digits that are not a valid EAN-13.
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: form,
            files: [try UploadFixtures.file("scan_file", try UploadFixtures.barcode("4901234567895", symbology: "20"), name: "scan.png")])
        #expect(response.status == 422)
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.scanNotProduct])))
    }

    @Test func aPhotoWithoutABarcodeSaysSoAndKeepsTheForm() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: draftForm(fixture, name: "Kept", action: "scan"),
            files: [try UploadFixtures.file("scan_file", UploadFixtures.jpeg())])
        #expect(response.status == 422)
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.scanNoneFound])))
        #expect(response.text.contains("value=\"Kept\""))
    }

    @Test func enterInTheBarcodeFieldLooksUpInsteadOfSaving() async throws {
        let fixture = try await HouseholdFixture()
        var form = draftForm(fixture, name: "", action: "lookup")
        form.append(("d0.barcode", "4901234567894"))
        let response = try fixture.send("POST", "/items/new", as: fixture.member, form: form)
        #expect(response.status == 200)
        let page = response.text
        #expect(page.contains("name=\"d0.name\" type=\"text\" value=\"Milk\""))
        #expect(page.contains("id=\"f-d1.barcode\""), "a new draft for the next scan")
        #expect(page.contains("autofocus"), "the cursor waits in it")

        var wrong = draftForm(fixture, name: "Typo", action: "lookup")
        wrong.append(("d0.barcode", "4901234567895"))
        let refused = try fixture.send("POST", "/items/new", as: fixture.member, form: wrong)
        #expect(refused.status == 422)
        #expect(refused.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.barcodeCheckDigit])))
    }

    @Test func productsCanBeCorrectedAndForgotten() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/products", as: fixture.viewer).text.contains("4901234567894"))
        #expect(try fixture.send("GET", "/products", as: fixture.otherOwner).text.contains("4901234567894") == false)
        // Registered with a due date ten days on, the product says how long it keeps.
        #expect(!(try fixture.send("GET", "/products", as: fixture.viewer).text.contains("keeps about")))
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        var milk = ItemInput()
        milk.name = "Milk"
        milk.barcode = "4901234567894"
        milk.due = CalendarDay.today(in: .gmt, now: fixture.clock.now).adding(days: 10).description
        _ = try fixture.items.register([milk], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)
        #expect(try fixture.send("GET", "/products", as: fixture.viewer).text.contains("keeps about 10 days"))
        let invalid = try fixture.send(
            "POST", "/products/\(fixture.productId)", as: fixture.member,
            form: [("name", ""), ("kind", "dairy_eggs"), ("unit", "bottle"), ("folder", ""), ("picture", "")])
        #expect(invalid.status == 422)
        #expect(
            try fixture.send(
                "POST", "/products/\(fixture.productId)", as: fixture.member,
                form: [("name", "Low-fat milk"), ("kind", "dairy_eggs"), ("unit", "bottle"), ("folder", ""), ("picture", "illustration:milk")]
            ).status == 303)
        #expect(try fixture.send("GET", "/products", as: fixture.viewer).text.contains("Low-fat milk"))
        #expect(try fixture.send("POST", "/products/\(fixture.productId)/forget", as: fixture.member).status == 303)
        #expect(!(try fixture.send("GET", "/products", as: fixture.viewer).text.contains("Low-fat milk")))
    }

    @Test func theItemPageTakesANewPhoto() async throws {
        let fixture = try await HouseholdFixture()
        let refused = try fixture.send(
            "POST", "/items/\(fixture.itemId)/photo", as: fixture.member,
            files: [try UploadFixtures.file("photo_file", Array("nope".utf8))])
        #expect(refused.status == 422)
        let response = try fixture.send(
            "POST", "/items/\(fixture.itemId)/photo", as: fixture.member,
            files: [try UploadFixtures.file("photo_file", UploadFixtures.jpeg())])
        #expect(response.status == 303)
        let page = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.viewer).text
        #expect(!page.contains("/photos/\(fixture.photoKey)/512"), "the new photo replaced the old")
        #expect(page.contains("/512\""))
    }
}

/// A message as it appears in a page (the renderer escapes it).
func HTMLEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
}
