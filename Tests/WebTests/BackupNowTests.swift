import Backups
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Inventory
@testable import Web

/// Settings' "Back up now" and the download of the newest archive: owners only, through the
/// server's real backup thread (a backup held open by the test shows as being made, and a second
/// request is turned down politely); the archive only when it holds this household alone.
@Suite("Back up now and download from Settings")
struct BackupNowTests {
    /// A backup thread in a folder of its own whose archives wait for `release()` before they are written.
    final class HeldBackups: Sendable {
        let folder: TemporaryFolder
        let runner: AutomaticBackups
        let gate = DispatchSemaphore(value: 0)

        init(database: AppDatabase, clock: ManualClock) throws {
            let folder = try TemporaryFolder("zaiko-backup-now")
            self.folder = folder
            let gate = gate
            runner = AutomaticBackups(
                plan: BackupPlan(directory: folder.url, schedule: BackupSchedule(hour: 3, timeZone: .gmt)!), database: database, clock: clock.wall,
                makeArchive: { url in
                    gate.wait()
                    try Data("PK archive".utf8).write(to: url)
                })
        }

        func release() { gate.signal() }

        /// The name today's archive gets.
        func todaysArchive(_ clock: ManualClock) -> String { ArchiveName.file(for: BackupSchedule(hour: 3, timeZone: .gmt)!.day(of: clock.now)) }
    }

    func card(_ page: String) -> String {
        guard let start = page.range(of: "<section class=\"card\" id=\"backups\"") else { return "" }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.upperBound ?? rest.endIndex)])
    }

    func bytes(of response: Response) -> [UInt8] {
        guard case .file(let descriptor, let size) = response.body else { return [] }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: Int(size))
        _ = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Int(size), 0) }
        return buffer
    }

    func removeOtherHousehold(_ fixture: HouseholdFixture) throws {
        let other = try #require(try fixture.accounts.session(token: fixture.otherOwner)).household.householdId
        try fixture.app.database.writer.write { db in try db.execute(sql: "DELETE FROM household WHERE id = ?", arguments: [other]) }
    }

    @Test func theOwnerBacksUpNowASecondRequestWaitsAndTheArchiveDownloads() async throws {
        let held = try HeldBackupsServer()
        try await held.running { fixture in
            try removeOtherHousehold(fixture)

            let before = card(try fixture.send("GET", "/settings", as: fixture.owner).text)
            #expect(before.contains("action=\"/settings/backups/now#backups\""))
            #expect(before.contains(">Back up now</button>"))
            #expect(!before.contains("/settings/backups/latest"), "no archive yet")
            #expect(try fixture.send("GET", "/settings/backups/latest", as: fixture.owner).status == 404)

            let asked = try fixture.send("POST", "/settings/backups/now", as: fixture.owner)
            #expect(asked.status == 303)
            #expect(asked.header("Location") == "/settings?backup=started#backups")
            // The thread holds the archive open: the page says it is being made and offers no second one.
            try waitUntil("the backup thread started the backup") { held.backups.runner.isBackingUp }
            let running = card(try fixture.send("GET", "/settings?backup=started", as: fixture.owner).text)
            #expect(running.contains("A backup is being made now"))
            #expect(!running.contains(">Back up now</button>"))
            let again = try fixture.send("POST", "/settings/backups/now", as: fixture.owner)
            #expect(again.header("Location") == "/settings?backup=busy#backups")
            let busy = card(try fixture.send("GET", "/settings?backup=busy", as: fixture.owner, headers: [("Accept-Language", "ja")]).text)
            #expect(busy.contains("すでにバックアップを作成中です。"))

            held.backups.release()
            try waitUntil("the backup was made") { !held.backups.runner.isBackingUp }
            let name = held.backups.todaysArchive(fixture.clock)
            #expect(try FileManager.default.contentsOfDirectory(atPath: held.backups.folder.url.path) == [name])
            let done = card(try fixture.send("GET", "/settings?backup=started", as: fixture.owner).text)
            #expect(done.contains("The backup you asked for has finished"))
            #expect(done.contains("Last good backup:"))
            #expect(done.contains("href=\"/settings/backups/latest\""))

            let download = try fixture.send("GET", "/settings/backups/latest", as: fixture.owner)
            #expect(download.status == 200)
            #expect(download.header("Content-Type") == "application/zip")
            #expect(
                download.header("Content-Disposition")
                    == "attachment; filename=\"\(name)\"; filename*=UTF-8''\(name)")
            #expect(bytes(of: download) == Array("PK archive".utf8))
        }
    }

    @Test func membersViewersAndStrangersCanNeitherBackUpNorDownload() async throws {
        let held = try HeldBackupsServer()
        try await held.running { fixture in
            try Data("PK archive".utf8).write(to: held.backups.folder.appending("zaiko-backup-2026-11-21.zip"))
            try removeOtherHousehold(fixture)
            for session in [fixture.member, fixture.viewer] {
                #expect(try fixture.send("POST", "/settings/backups/now", as: session).status == 403)
                let refused = try fixture.send("GET", "/settings/backups/latest", as: session)
                #expect(refused.status == 403)
                #expect(bytes(of: refused).isEmpty)
            }
            #expect(try fixture.send("GET", "/settings/backups/latest", as: nil).status != 200)
            // Signed out: sent to sign in, nothing asked.
            #expect(try fixture.send("POST", "/settings/backups/now", as: nil).header("Location")?.contains("backup=") != true)
            // Without the form's token nothing is asked.
            #expect(try fixture.send("POST", "/settings/backups/now", as: fixture.owner, csrf: .none).status == 403)
            #expect(!held.backups.runner.isBackingUp)
            #expect(try fixture.send("GET", "/settings/backups/latest", as: fixture.owner).status == 200)
        }
    }

    /// An archive holds every household on the server: with two, neither owner may download it.
    @Test func withTwoHouseholdsOnTheServerNoOwnerDownloadsTheArchive() async throws {
        let held = try HeldBackupsServer()
        try await held.running { fixture in
            try Data("PK archive".utf8).write(to: held.backups.folder.appending("zaiko-backup-2026-11-21.zip"))
            for owner in [fixture.owner, fixture.otherOwner] {
                #expect(try fixture.send("GET", "/settings/backups/latest", as: owner).status == 404)
                #expect(!card(try fixture.send("GET", "/settings", as: owner).text).contains("/settings/backups/latest"))
            }
        }
    }

    @Test func aServerThatMakesNoBackupsOffersNeither() async throws {
        let fixture = try await HouseholdFixture()
        try removeOtherHousehold(fixture)
        #expect(!card(try fixture.send("GET", "/settings", as: fixture.owner).text).contains("Back up now"))
        #expect(try fixture.send("POST", "/settings/backups/now", as: fixture.owner).status == 404)
        #expect(try fixture.send("GET", "/settings/backups/latest", as: fixture.owner).status == 404)
    }
}

/// A `HouseholdFixture` whose server has a running backup thread with archives held by the test.
final class HeldBackupsServer: @unchecked Sendable {
    var backups: BackupNowTests.HeldBackups!

    init() throws {}

    /// Runs `body` against the fixture while the backup thread runs; then lets a held archive be
    /// written, stops the thread as the server does and removes the folder.
    func running(_ body: (HouseholdFixture) async throws -> Void) async throws {
        let fixture = try await HouseholdFixture(backups: LateBackups(self))
        let backups = try BackupNowTests.HeldBackups(database: fixture.app.database, clock: fixture.clock)
        self.backups = backups
        defer { backups.folder.remove() }
        try await TestSupport.running(backups.runner) {
            defer { backups.release() }
            try await body(fixture)
        }
    }
}

/// Hands Settings the held backups made after the fixture (which needs the app's database).
struct LateBackups: BackupControl {
    let server: HeldBackupsServer
    init(_ server: HeldBackupsServer) { self.server = server }
    func backUpNow() -> Bool { server.backups.runner.backUpNow() }
    var isBackingUp: Bool { server.backups.runner.isBackingUp }
    func latestArchive() -> URL? { server.backups.runner.latestArchive() }
}
