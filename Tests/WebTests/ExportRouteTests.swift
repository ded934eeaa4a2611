import Foundation
import HTTPServer
import Inventory
import Testing
import ZIPFoundation

@testable import Web

/// `GET /settings/export`: owners download the household as a ZIP, sent from a file.
@Suite("Export download")
struct ExportRouteTests {
    /// The bytes of a file body (the descriptor is closed afterwards, as the server does).
    func bytes(of response: Response) throws -> [UInt8] {
        guard case .file(let descriptor, let size) = response.body else {
            Issue.record("the export is not sent from a file")
            return []
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: Int(size))
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Int(size), 0) }
        #expect(count == Int(size))
        return buffer
    }

    @Test("the owner gets a ZIP of Home only, named after the household in ASCII and in UTF-8")
    func ownerDownloads() async throws {
        let fixture = try await HouseholdFixture()
        let home = try #require(try fixture.accounts.session(token: fixture.owner))
        try HouseholdSettings(database: fixture.app.database).update(home.household, name: "山田家 Home", timeZone: "Asia/Tokyo", dueSoonDays: "3")

        let response = try fixture.send("GET", "/settings/export", as: fixture.owner)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/zip")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let parts = calendar.dateComponents([.year, .month, .day], from: fixture.clock.now)
        let day = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        #expect(
            response.header("Content-Disposition")
                == "attachment; filename=\"zaiko-Home-\(day).zip\"; filename*=UTF-8''zaiko-%E5%B1%B1%E7%94%B0%E5%AE%B6-Home-\(day).zip")
        #expect(response.header("Cache-Control") == "no-store")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-route-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try bytes(of: response)).write(to: file)
        let archive = try Archive(url: file, accessMode: .read)
        var json: [UInt8] = []
        _ = try archive.extract(try #require(archive["household.json"])) { json.append(contentsOf: $0) }
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"Milk\"") && text.contains("山田家 Home"))
        #expect(!text.contains("Grandparents") && !text.contains("grandma"))
        #expect(archive["photos/\(fixture.photoKey)-512.jpg"] != nil)
        // Nothing is left in the temporary folder: the file was unlinked once opened.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter {
            $0.hasPrefix("zaiko-export-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test("Settings offers the download to owners; members and viewers are refused")
    func onlyOwners() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/settings", as: fixture.owner).text.contains("href=\"/settings/export\""))
        #expect(try fixture.send("GET", "/settings/export", as: fixture.member).status == 403)
        #expect(try fixture.send("GET", "/settings/export", as: fixture.viewer).status == 403)
        #expect(try fixture.send("GET", "/settings/export", as: nil).status == 303)
    }
}
