import Backups
import Foundation
import GRDB
import Testing

@testable import Inventory
@testable import Web

/// Owners see the server's automatic backups in Settings: the last good one and the next, in the
/// household's time zone and their language, and a failure as an alert. Nobody else sees them.
@Suite("Automatic backups in Settings")
struct AutoBackupSettingsTests {
    func setTokyo(_ fixture: HouseholdFixture) throws {
        let id = try #require(try fixture.accounts.session(token: fixture.owner)).household.householdId
        try fixture.app.database.writer.write { db in
            try db.execute(sql: "UPDATE household SET time_zone = 'Asia/Tokyo' WHERE id = ?", arguments: [id])
        }
    }

    /// The card's markup alone.
    func card(_ page: String) -> String {
        guard let start = page.range(of: "<section class=\"card\" id=\"backups\"") else { return "" }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.upperBound ?? rest.endIndex)])
    }

    @Test func withoutAScheduleTheOwnerReadsThatBackupsAreOff() async throws {
        let fixture = try await HouseholdFixture()
        let section = card(try fixture.send("GET", "/settings", as: fixture.owner).text)
        #expect(section.contains("Automatic backups are turned off on this server."))
        #expect(section.contains("No automatic backup has been made yet."))
        #expect(!section.contains("Every day the server saves"))
        #expect(!section.contains("role=\"alert\""))
    }

    @Test func theLastGoodBackupAndTheNextAreShownInTheHouseholdsZoneAndLanguage() async throws {
        let fixture = try await HouseholdFixture()
        try setTokyo(fixture)
        let status = BackupStatusStore(database: fixture.app.database)
        // 18:00 UTC on the 22nd is 03:00 on the 23rd in Tokyo.
        try status.recordSuccess(at: utcDate("2026-11-22T18:00:00Z"), file: "zaiko-backup-2026-11-23.zip")
        try status.recordSchedule(next: utcDate("2026-11-23T18:00:00Z"))
        let english = card(try fixture.send("GET", "/settings", as: fixture.owner).text)
        #expect(english.contains("Last good backup: Nov 23, 2026"))
        #expect(english.contains("3:00"))
        #expect(english.contains("Next backup: Nov 24, 2026"))
        #expect(!english.contains("turned off"))
        #expect(english.contains("Every day the server saves a copy of all its data"))
        #expect(!english.contains("role=\"alert\""))
        let japanese = card(try fixture.send("GET", "/settings", as: fixture.owner, headers: [("Accept-Language", "ja")]).text)
        #expect(japanese.contains("最後に成功したバックアップ: 2026年11月23日 3:00"))
        #expect(japanese.contains("次のバックアップ: 2026年11月24日 3:00"))
    }

    @Test func aFailureIsAnAlertForOwnersUntilAGoodBackupFollows() async throws {
        let fixture = try await HouseholdFixture()
        try setTokyo(fixture)
        let status = BackupStatusStore(database: fixture.app.database)
        try status.recordSchedule(next: utcDate("2026-11-24T18:00:00Z"))
        try status.recordSuccess(at: utcDate("2026-11-22T18:00:00Z"), file: "zaiko-backup-2026-11-23.zip")
        try status.recordFailure(at: utcDate("2026-11-23T18:00:00Z"), reason: .diskFull, texts: .english)

        let english = card(try fixture.send("GET", "/settings", as: fixture.owner).text)
        #expect(english.contains("role=\"alert\""))
        #expect(english.contains("The backup of Nov 24, 2026"))
        #expect(english.contains("failed. The backup disk is full."))
        #expect(english.contains("Last good backup: Nov 23, 2026"))
        let japanese = card(try fixture.send("GET", "/settings", as: fixture.owner, headers: [("Accept-Language", "ja")]).text)
        #expect(japanese.contains("バックアップに失敗しました。バックアップ先のディスクがいっぱいです。"))

        // Members and viewers do not reach Settings at all; the other household's owner sees the
        // server's status as their own (one server, one backup), but none of this household's data.
        for session in [fixture.member, fixture.viewer] {
            let refused = try fixture.send("GET", "/settings", as: session)
            #expect(refused.status == 403)
            #expect(!refused.text.contains("backup disk is full"))
        }
        #expect(try fixture.send("GET", "/settings", as: nil).status != 200)

        try status.recordSuccess(at: utcDate("2026-11-24T18:00:00Z"), file: "zaiko-backup-2026-11-25.zip")
        let recovered = card(try fixture.send("GET", "/settings", as: fixture.owner).text)
        #expect(!recovered.contains("role=\"alert\""))
        #expect(recovered.contains("Last failure: Nov 24, 2026"))
        #expect(recovered.contains("A good backup has been made since."))
    }
}

func utcDate(_ text: String) -> Date { Timestamp(text)!.date }
