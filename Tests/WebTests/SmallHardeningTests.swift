import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// The smaller findings of the hardening review: quantities, photo caching, file modes.
@Suite("Small hardening")
struct SmallHardeningTests {
    func quantity(_ fixture: HouseholdFixture) throws -> Double {
        let home = try #require(try fixture.accounts.session(token: fixture.owner)).household
        return try fixture.items.item(fixture.itemId, in: home).quantity
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e308", "-1e308", "2000000", "", "lots"])
    func aQuantityStepThatIsNotAReasonableNumberIsRefused(delta: String) async throws {
        let fixture = try await HouseholdFixture()
        let before = try quantity(fixture)
        let response = try fixture.send("POST", "/items/\(fixture.itemId)/quantity", as: fixture.member, form: [("delta", delta), ("return", "/")])
        #expect(response.status == 422)
        #expect(response.text.contains("A quantity can only change by a number between"))
        #expect(try quantity(fixture) == before)
    }

    @Test func plusStopsAtTheLargestQuantity() async throws {
        let fixture = try await HouseholdFixture()
        let step = { (delta: String) in
            try fixture.send("POST", "/items/\(fixture.itemId)/quantity", as: fixture.member, form: [("delta", delta), ("return", "/")])
        }
        #expect(try step("999999").status == 303)
        #expect(try quantity(fixture) == 1_000_000)
        let refused = try step("1")
        #expect(refused.status == 422)
        #expect(refused.text.contains("A quantity can be at most 1,000,000."))
        #expect(try quantity(fixture) == 1_000_000)
        #expect(try step("-1").status == 303)
        #expect(try quantity(fixture) == 999_999)
    }

    @Test(arguments: ["1e308", "inf", "2000000"])
    func theItemFormRefusesAnAbsurdQuantity(typed: String) async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("d0.name", "Rice"), ("d0.quantity", typed), ("d0.unit", "piece"), ("d0.kind", "other"),
            ])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-d0.quantity-error\""))
        #expect(response.text.contains("value=\"\(typed)\""), "the typed value is kept")
    }

    @Test func photosAreRevalidatedEveryTimeNotKeptImmutable() async throws {
        let fixture = try await HouseholdFixture()
        let served = try fixture.send("GET", "/photos/\(fixture.photoKey)/512", as: fixture.owner)
        #expect(served.status == 200)
        #expect(served.header("Cache-Control") == "private, no-cache")
        let etag = try #require(served.header("ETag"))
        let again = try fixture.send("GET", "/photos/\(fixture.photoKey)/512", as: fixture.owner, headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.header("Cache-Control") == "private, no-cache")
        // Signed out, the browser's revalidation gets the login page, not the photo.
        let anonymous = try fixture.send("GET", "/photos/\(fixture.photoKey)/512", as: nil, headers: [("If-None-Match", etag)])
        #expect(anonymous.status == 303)
    }

    @Test func photoFilesAndTheirFolderAreForZaikoOnly() async throws {
        let fixture = try await HouseholdFixture()
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        let directory = fixture.app.photos.directory.path
        #expect(try mode(directory) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 2)
        for file in files { #expect(try mode(directory + "/" + file) == 0o600, "\(file)") }
    }
}
