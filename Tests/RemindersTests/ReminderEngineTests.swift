import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory
@testable import Reminders

@Suite("Reminder engine under an injected clock")
struct ReminderEngineTests {
    /// A disk that refuses the outbox's writes: the delivery fails, and the engine waits before
    /// trying again instead of starting a new delivery the moment the failed one ends.
    @Test func anOutboxThatCannotBeWrittenIsRetriedAfterAPauseNotInALoop() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T23:58:00Z"))
        try fixture.ntfy("http://push.test")
        try fixture.item("Milk", due: "2026-11-24", remind: "2026-11-23T09:00")
        // Claiming a message (an UPDATE) fails; queueing it (an INSERT) still works.
        try await fixture.database.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: "CREATE TEMP TRIGGER refuse_claims BEFORE UPDATE ON push_message BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
        }
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually("asleep until the reminder") { fixture.sleeper.deadline == utc("2026-11-23T00:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-23T00:00:00Z"))
            try await eventually("asleep for the pause after the failed delivery") {
                fixture.sleeper.isSettled && fixture.sleeper.deadline == utc("2026-11-23T00:00:30Z")
            }
            #expect(try fixture.messages("pending").count == 1)
            #expect(sender.sent.isEmpty)
        }
    }

    @Test func firesOnceAtTheRightMinuteInTheHouseholdsTimeZone() async throws {
        // 9:00 in Tokyo is 0:00 UTC.
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T23:58:00Z"))
        try fixture.ntfy("http://push.test")
        try fixture.item("Milk", due: "2026-11-24", remind: "2026-11-23T09:00")
        let sender = RecordingSender(clock: fixture.clock)
        let engine = fixture.engine(sender: sender)
        try await running(engine) {
            try await eventually("asleep until the reminder") { fixture.sleeper.deadline == utc("2026-11-23T00:00:00Z") }
            fixture.sleeper.advance(60)
            try await settle(fixture.sleeper)
            #expect(sender.sent.isEmpty, "sent a minute early")
            fixture.sleeper.advance(60)
            try await eventually("the reminder") { sender.sent.count == 1 }
            #expect(sender.sent[0].at == utc("2026-11-23T00:00:00Z"))
            #expect(sender.sent[0].body == "Milk (Fridge, due 2026-11-24)")
            #expect(sender.sent[0].headers["Title"] == "Reminder: Milk")
            // Later, nothing more: exactly once.
            fixture.sleeper.advance(86400)
            try await settle(fixture.sleeper)
            #expect(sender.sent.count == 1)
            #expect(fixture.sleeper.deadline == nil)
        }
    }

    @Test func firesAtTheLocalTimeAcrossADaylightSavingChange() async throws {
        // Berlin leaves summer time on 25 October 2026 at 3:00: 9:00 that day is 8:00 UTC, not 7:00.
        let fixture = try EngineFixture(timeZone: "Europe/Berlin", start: utc("2026-10-24T12:00:00Z"))
        try fixture.ntfy("http://push.test")
        try fixture.item("Bread", due: "2026-10-26", remind: "2026-10-25T09:00")
        // And one before the change, on summer time: 9:00 is 7:00 UTC.
        try fixture.item("Cheese", due: "2026-10-25", remind: "2026-10-24T17:30")
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually("asleep until the first") { fixture.sleeper.deadline == utc("2026-10-24T15:30:00Z") }
            fixture.sleeper.advance(to: utc("2026-10-24T15:30:00Z"))
            try await eventually("summer time reminder") { sender.sent.count == 1 }
            #expect(sender.sent[0].at == utc("2026-10-24T15:30:00Z"))
            try await eventually("asleep until the second") { fixture.sleeper.deadline == utc("2026-10-25T08:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-10-25T07:00:00Z"))
            try await settle(fixture.sleeper)
            #expect(sender.sent.count == 1, "fired on summer time")
            fixture.sleeper.advance(to: utc("2026-10-25T08:00:00Z"))
            try await eventually("winter time reminder") { sender.sent.count == 2 }
            #expect(sender.sent[1].at == utc("2026-10-25T08:00:00Z"))
            #expect(sender.sent[1].body.hasPrefix("Bread"))
        }
    }

    @Test func anEditReschedulesTheReminder() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T00:00:00Z"))
        try fixture.ntfy("http://push.test")
        let id = try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-23T09:00")
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually { fixture.sleeper.deadline == utc("2026-11-23T00:00:00Z") }
            // Someone edits the item on a page: the engine is not told, it sees the write.
            var input = ItemInput(try fixture.items.item(id, in: fixture.household), timeZone: fixture.zone)
            input.remindAt = "2026-11-24T18:00"
            try fixture.items.update(
                id, with: input, folderId: fixture.fridgeId, version: 1, in: fixture.household, by: fixture.memberId, timeZone: fixture.zone)
            try await eventually("rescheduled") { fixture.sleeper.deadline == utc("2026-11-24T09:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-23T00:00:00Z"))
            try await settle(fixture.sleeper)
            #expect(sender.sent.isEmpty, "sent at the old time")
            fixture.sleeper.advance(to: utc("2026-11-24T09:00:00Z"))
            try await eventually { sender.sent.count == 1 }
            #expect(sender.sent[0].at == utc("2026-11-24T09:00:00Z"))
        }
    }

    @Test func deletingMovingOrClearingTheDateCancels() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T00:00:00Z"))
        try fixture.ntfy("http://push.test")
        let trashed = try fixture.item("Eggs", due: "2026-11-25", remind: "2026-11-23T09:00")
        let moved = try fixture.item("Butter", due: "2026-11-25", remind: "2026-11-23T10:00")
        let cleared = try fixture.item("Tofu", due: "2026-11-25", remind: "2026-11-23T11:00")
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually { fixture.sleeper.deadline == utc("2026-11-23T09:00:00Z") }
            try fixture.items.trash([trashed], in: fixture.household, by: fixture.memberId)
            try await eventually("trash cancels") { fixture.sleeper.deadline == utc("2026-11-23T10:00:00Z") }
            try fixture.items.move([moved], to: fixture.shoppingId, in: fixture.household, by: fixture.memberId)
            try await eventually("a move to a shopping list cancels") { fixture.sleeper.deadline == utc("2026-11-23T11:00:00Z") }
            var input = ItemInput(try fixture.items.item(cleared, in: fixture.household), timeZone: fixture.zone)
            input.remindAt = ""
            try fixture.items.update(
                cleared, with: input, folderId: fixture.fridgeId, version: 1, in: fixture.household, by: fixture.memberId, timeZone: fixture.zone)
            try await eventually("clearing the date cancels") { fixture.sleeper.deadline == nil }
            fixture.sleeper.advance(3 * 86400)
            try await settle(fixture.sleeper)
            #expect(sender.sent.isEmpty)
        }
    }

    @Test func catchesUpAfterARestartWithoutDuplicates() async throws {
        let folder = try TemporaryFolder("zaiko-restart")
        defer { folder.remove() }
        let file = folder.databaseURL

        let first = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T00:00:00Z"), database: try AppDatabase.open(at: file))
        try first.ntfy("http://push.test")
        try first.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        try first.item("Eggs", due: "2026-11-25", remind: "2026-11-22T12:00")
        try first.item("Natto", due: "2026-11-26", remind: "2026-11-22T15:00")
        try first.item("Salmon", due: "2026-11-27", remind: "2026-11-23T09:00")
        let sender = RecordingSender(clock: first.clock)
        try await running(first.engine(sender: sender)) {
            try await eventually { first.sleeper.deadline == utc("2026-11-22T09:00:00Z") }
            first.sleeper.advance(to: utc("2026-11-22T09:00:00Z"))
            try await eventually { sender.sent.count == 1 }
        }
        // The server is down from 10:00 to 16:00: two reminders pass meanwhile.
        let second = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T16:00:00Z"), database: try AppDatabase.open(at: file))
        let afterRestart = RecordingSender(clock: second.clock)
        try await running(second.engine(sender: afterRestart)) {
            try await eventually("the missed reminders") { afterRestart.sent.count == 1 }
            try await eventually { second.sleeper.deadline == utc("2026-11-23T09:00:00Z") }
            try await settle(second.sleeper)
        }
        #expect(afterRestart.sent.count == 1, "missed reminders of one household go out as one message")
        #expect(afterRestart.sent[0].headers["Title"] == "2 reminders")
        #expect(afterRestart.sent[0].body == "2 reminders: Eggs (Fridge, due 2026-11-25), Natto (Fridge, due 2026-11-26)")
        // A third start at the same time repeats nothing.
        let third = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T16:30:00Z"), database: try AppDatabase.open(at: file))
        let again = RecordingSender(clock: third.clock)
        try await running(third.engine(sender: again)) {
            try await eventually { third.sleeper.sleeps >= 1 }
            try await settle(third.sleeper)
        }
        #expect(again.sent.isEmpty)
        #expect(try third.messages("sent").count == 2)
    }

    @Test func withoutAChannelDueRemindersAreMarkedAndNothingIsQueued() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T10:00:00Z"))
        try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually { fixture.sleeper.sleeps >= 1 && fixture.sleeper.deadline == nil }
        }
        #expect(sender.sent.isEmpty)
        #expect(try fixture.messages().isEmpty)
        // Setting a channel later does not bring back yesterday's reminder.
        try fixture.ntfy("http://push.test")
        #expect(try fixture.engine(sender: sender).nextInstant() == nil)
    }

    @Test func failuresAreRetriedWithBackoffAndShowTheLastError() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T08:59:00Z"))
        try fixture.ntfy("http://push.test")
        try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        let sender = RecordingSender(clock: fixture.clock, statuses: [500, 503])
        try await running(fixture.engine(sender: sender)) {
            fixture.sleeper.advance(60)
            try await eventually("first attempt") { sender.sent.count == 1 }
            try await eventually("retry in a minute") { fixture.sleeper.deadline == utc("2026-11-22T09:01:00Z") }
            let status = try fixture.outbox.status(in: fixture.household)
            #expect(status.lastError == .status(500))
            #expect(status.waiting == 1)
            #expect(status.nextRetryAt == "2026-11-22T09:01:00Z")
            fixture.sleeper.advance(60)
            try await eventually("second attempt") { sender.sent.count == 2 }
            try await eventually("retry in five minutes") { fixture.sleeper.deadline == utc("2026-11-22T09:06:00Z") }
            fixture.sleeper.advance(300)
            try await eventually("third attempt") { sender.sent.count == 3 }
            try await eventually { try fixture.messages("sent").count == 1 }
        }
        #expect(Set(sender.sent.map(\.body)).count == 1, "each attempt sends the same message")
        #expect(try fixture.messages()[0].attempts == 3)
    }

    @Test func aMessageIsGivenUpAfterEveryRetry() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T09:00:00Z"))
        try fixture.ntfy("http://push.test")
        try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        let sender = RecordingSender(clock: fixture.clock, statuses: Array(repeating: 500, count: 20))
        try await running(fixture.engine(sender: sender)) {
            for attempt in 1...ReminderEngine.maxAttempts {
                // The attempt is recorded (deliveries run on their own task), then the engine sleeps until the retry.
                try await eventually("attempt \(attempt)") { try sender.sent.count == attempt && fixture.messages()[0].attempts == attempt }
                let message = try fixture.messages()[0]
                guard message.state == .pending else { break }
                let retry = message.nextAttemptAt.date
                try await eventually("asleep until the retry") { fixture.sleeper.deadline == retry }
                fixture.sleeper.advance(to: retry)
            }
            try await eventually { try fixture.messages("failed").count == 1 }
        }
        #expect(sender.sent.count == ReminderEngine.maxAttempts)
        #expect(try fixture.outbox.status(in: fixture.household).failed == 1)
    }

    @Test func theDailyDigestGoesOutOnceADayAtItsLocalHour() async throws {
        // 7:00 in Tokyo is 22:00 UTC the day before.
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T12:00:00Z"))
        try fixture.ntfy("http://push.test", digestHour: "7")
        try fixture.item("Old milk", due: "2026-11-20", remind: nil)
        try fixture.item("Old eggs", due: "2026-11-22", remind: nil)
        try fixture.item("Tofu", due: "2026-11-23", remind: nil)
        try fixture.item("Natto", due: "2026-11-26", remind: nil)
        try fixture.item("Miso", due: "2026-11-30", remind: nil)
        try fixture.item("Rice", due: "2027-05-01", remind: nil)
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            try await eventually { fixture.sleeper.deadline == utc("2026-11-22T22:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-22T22:00:00Z"))
            try await eventually { sender.sent.count == 1 }
            // On 23 November: 2 expired, Tofu today, Natto and Miso within the week.
            #expect(sender.sent[0].body == "2 expired, 1 due today, 2 this week")
            #expect(sender.sent[0].headers["Title"] == "Today in Zaiko")
            try await eventually("tomorrow's") { fixture.sleeper.deadline == utc("2026-11-23T22:00:00Z") }
            fixture.sleeper.advance(3600)
            try await settle(fixture.sleeper)
            #expect(sender.sent.count == 1)
        }
    }

    @Test func theDigestNamesWhatExpiredUnusedThisWeek() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T12:00:00Z"))
        try fixture.ntfy("http://push.test", digestHour: "7")
        // Thrown away expired on 22 November (Tokyo): within the week before the digest of the 23rd.
        let milk = try fixture.item("Old milk", due: "2026-11-20", remind: nil)
        let natto = try fixture.item("Natto", due: "2026-11-21", remind: nil)
        try fixture.items.trash([milk, natto], in: fixture.household, by: fixture.memberId)
        try fixture.item("Tofu", due: "2026-11-23", remind: nil)
        let sender = RecordingSender(clock: fixture.clock)
        let japanese: [String: String] = [
            "push_digest_body": "期限切れ{expired}件、今日まで{today}件、今週中{week}件", "push_list_separator": "、",
            "push_digest_expired_unused": "今週、期限切れで使わなかったもの{count}件：{names}",
        ]
        let texts = ReminderTexts { language, key in language == "ja" ? japanese[key] : nil }
        try await running(fixture.engine(sender: sender, texts: texts)) {
            try await eventually { fixture.sleeper.deadline == utc("2026-11-22T22:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-22T22:00:00Z"))
            try await eventually { sender.sent.count == 1 }
        }
        #expect(sender.sent[0].body == "0 expired, 1 due today, 0 this week\n2 expired unused this week: Old milk, Natto")
        // In the household's language, the same line.
        let contents = ReminderQueue.DigestContents(counts: DueCounts(), expiredUnused: ExpiredUnused(count: 7, names: ["牛乳", "卵"], products: 4))
        #expect(texts.digest(contents, language: "ja").body == "期限切れ0件、今日まで0件、今週中0件\n今週、期限切れで使わなかったもの7件：牛乳、卵、and 2 more")
        #expect(
            ReminderTexts.english.digest(
                ReminderQueue.DigestContents(counts: DueCounts(), expiredUnused: ExpiredUnused(count: 1, names: ["Jam"], products: 1)), language: "en"
            ).body == "0 expired, 0 due today, 0 this week\n1 expired unused this week: Jam")
    }

    @Test func theDigestNamesWhatIsBelowItsMinimum() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T12:00:00Z"))
        try fixture.ntfy("http://push.test", digestHour: "7")
        // Milk kept at 2 with 1 left, eggs kept at 6 with 12: only milk is short (nothing is due).
        let milk = try fixture.item("Milk", due: "2027-01-10", remind: nil)
        let eggs = try fixture.item("Eggs", due: "2027-01-10", remind: nil)
        try fixture.items.adjustQuantity(eggs, by: 11, in: fixture.household, by: fixture.memberId)
        let rules = KeepRules(database: fixture.database, clock: fixture.clock.wall)
        try rules.keep(forItem: milk, minimum: "2", refillTo: "", pack: "", in: fixture.household, by: fixture.memberId)
        try rules.keep(forItem: eggs, minimum: "6", refillTo: "", pack: "", in: fixture.household, by: fixture.memberId)
        let sender = RecordingSender(clock: fixture.clock)
        try await running(fixture.engine(sender: sender)) {
            // The rules are checked again at the start of Tokyo's 23rd (15:00 UTC), before the digest.
            try await eventually { fixture.sleeper.deadline == utc("2026-11-22T15:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-22T15:00:00Z"))
            try await eventually { fixture.sleeper.deadline == utc("2026-11-22T22:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-22T22:00:00Z"))
            try await eventually { sender.sent.count == 1 }
        }
        #expect(sender.sent[0].body == "0 expired, 0 due today, 0 this week\n1 below minimum: Milk")
        let japanese: [String: String] = ["push_digest_below_minimum": "最低量未満{count}件：{names}", "push_list_separator": "、"]
        let texts = ReminderTexts { language, key in language == "ja" ? japanese[key] : nil }
        let contents = ReminderQueue.DigestContents(counts: DueCounts(), belowMinimum: ["牛乳", "卵", "豆腐"])
        #expect(texts.digest(contents, language: "ja").body.hasSuffix("\n最低量未満3件：牛乳、卵、豆腐"))
    }

    @Test func messagesSpeakTheHouseholdsLanguage() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T23:00:00Z"), language: "ja")
        try fixture.ntfy("http://push.test")
        try fixture.item("牛乳", due: "2026-11-24", remind: "2026-11-23T08:00")
        try fixture.item("卵", due: "2026-11-25", remind: "2026-11-23T08:00")
        let japanese: [String: String] = [
            "push_reminders_title": "リマインダー {count} 件", "push_reminders_body": "リマインダー {count} 件：{list}",
            "push_reminder_line": "{name}（{folder}、期限 {due}）", "push_list_separator": "、",
        ]
        let sender = RecordingSender(clock: fixture.clock)
        let texts = ReminderTexts { language, key in language == "ja" ? japanese[key] : nil }
        try await running(fixture.engine(sender: sender, texts: texts)) {
            try await eventually { sender.sent.count == 1 }
        }
        #expect(sender.sent[0].body == "リマインダー 2 件：牛乳（冷蔵庫、期限 2026-11-24）、卵（冷蔵庫、期限 2026-11-25）")
        // Header values are ASCII: the title travels as an RFC 2047 encoded word.
        let title = try #require(sender.sent[0].headers["Title"])
        #expect(title == "=?UTF-8?B?" + Data("リマインダー 2 件".utf8).base64EncodedString() + "?=")
    }

    @Test func schedulingTenThousandRemindersStaysCheap() throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T00:00:00Z"))
        try fixture.database.writer.write { db in
            for index in 0..<10_000 {
                try db.execute(
                    sql: """
                        INSERT INTO item (household_id, folder_id, name, due, remind_at, status, created_at, updated_at)
                        VALUES (?, ?, ?, '2027-01-01', ?, 'unopened', '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z')
                        """,
                    arguments: [
                        fixture.household.householdId, fixture.fridgeId, "Item \(index)",
                        Timestamp(utc("2026-12-01T00:00:00Z").addingTimeInterval(Double(index) * 60)),
                    ])
            }
        }
        let plan = try fixture.database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT MIN(remind_at) FROM item WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at
                    """
            ).map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plan.contains("item_reminder_pending"), "\(plan)")
        let engine = fixture.engine(sender: RecordingSender(clock: fixture.clock))
        #expect(try engine.nextInstant() == utc("2026-12-01T00:00:00Z"))
    }
}
