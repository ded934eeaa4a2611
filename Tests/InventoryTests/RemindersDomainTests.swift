import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

@Suite("Push channels, calendar feeds and rebuilding reminders")
struct RemindersDomainTests {
    func fixture() throws -> (Fixture, SignedIn, PushChannels) {
        let fixture = try Fixture()
        fixture.clock.advance(0)
        return (fixture, try fixture.owner, PushChannels(database: fixture.database, clock: fixture.clock.wall))
    }

    @Test func aReminderThatPassedInTheTrashIsNotSentLateOnRestore() throws {
        let (fixture, owner, _) = try fixture()
        let items = Items(database: fixture.database, clock: fixture.clock.wall)
        let fridge = try #require(try items.folders(in: owner.household, kind: .stock).first?.id)
        var input = ItemInput()
        input.name = "Milk"
        let soon = fixture.clock.now.addingTimeInterval(3600)
        input.due = CalendarDay.today(in: .gmt, now: soon).adding(days: 1).description
        input.remindAt = LocalDateTime.text(soon, in: .gmt)
        let id = try items.register([input], into: fridge, in: owner.household, by: owner.memberId, timeZone: .gmt)[0]
        try items.trash([id], in: owner.household, by: owner.memberId)
        fixture.clock.advance(7200)
        try items.restore([id], in: owner.household, by: owner.memberId)
        let pending = try fixture.database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT reminder_sent_for IS NOT remind_at FROM item WHERE id = ?", arguments: [id])
        }
        #expect(pending == false)
    }

    @Test func aChannelIsCheckedFieldByField() throws {
        let (_, owner, channels) = try fixture()
        let cases: [(PushChannelInput, [String: FieldProblem])] = [
            (PushChannelInput(kind: "ntfy", url: "", topic: ""), ["url": .pushUrlRequired, "topic": .pushTopicRequired]),
            (PushChannelInput(kind: "ntfy", url: "ftp://x", topic: "a b"), ["url": .pushUrlInvalid, "topic": .pushTopicInvalid]),
            (PushChannelInput(kind: "ntfy", url: "https://user:pw@ntfy.sh", topic: "ok"), ["url": .pushUrlInvalid]),
            (PushChannelInput(kind: "ntfy", url: "javascript:alert(1)", topic: "ok"), ["url": .pushUrlInvalid]),
            (PushChannelInput(kind: "pigeon", url: "https://ntfy.sh", topic: "ok"), ["kind": .pushKindInvalid]),
            (PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "ok", accessToken: "tk\r\nX-Evil: 1"), ["access_token": .pushTokenInvalid]),
            (PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "ok", digestHour: "24"), ["digest_hour": .digestHourInvalid]),
        ]
        for (input, expected) in cases {
            #expect(throws: InventoryError.validation(expected), "\(input)") { try channels.save(input, in: owner.household) }
        }
        #expect(try channels.channel(in: owner.household) == nil)
    }

    @Test func theTokenIsKeptUnlessReplacedOrCleared() throws {
        let (_, owner, channels) = try fixture()
        try channels.save(PushChannelInput(kind: "ntfy", url: "http://192.168.1.5:8090/", topic: "home", accessToken: "tk_1"), in: owner.household)
        var channel = try #require(try channels.channel(in: owner.household))
        #expect(channel.accessToken == "tk_1")
        #expect(channel.target?.absoluteString == "http://192.168.1.5:8090/home")
        try channels.save(PushChannelInput(kind: "ntfy", url: "http://192.168.1.5:8090", topic: "home2"), in: owner.household)
        channel = try #require(try channels.channel(in: owner.household))
        #expect(channel.accessToken == "tk_1")
        #expect(channel.target?.absoluteString == "http://192.168.1.5:8090/home2")
        try channels.save(
            PushChannelInput(kind: "ntfy", url: "http://192.168.1.5:8090", topic: "home2", clearAccessToken: true), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == nil)
        // A webhook has no topic: its address is the whole target.
        try channels.save(PushChannelInput(kind: "webhook", url: "https://hooks.example/zaiko?x=1", topic: "ignored"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.target?.absoluteString == "https://hooks.example/zaiko?x=1")
    }

    @Test func aTestNeedsAChannelAndRemovingTheChannelDropsWaitingMessages() throws {
        let (fixture, owner, channels) = try fixture()
        let outbox = Outbox(database: fixture.database, clock: fixture.clock.wall)
        #expect(throws: InventoryError.validation(["push": .pushNoChannel])) {
            _ = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        }
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "home"), in: owner.household)
        let id = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        #expect(try outbox.message(id, in: owner.household)?.state == .pending)
        // Another household cannot read it.
        #expect(try outbox.message(id, in: HouseholdScope(owner.household.householdId + 1)) == nil)
        try channels.remove(in: owner.household)
        #expect(try outbox.message(id, in: owner.household) == nil)
    }

    @Test func theTokenIsClearedWhenTheAddressChangesUnlessANewOneIsGiven() throws {
        let (_, owner, channels) = try fixture()
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.example", topic: "home", accessToken: "tk_owner"), in: owner.household)
        // The same server written differently keeps it.
        try channels.save(PushChannelInput(kind: "ntfy", url: "HTTPS://ntfy.example:443/", topic: "home"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == "tk_owner")
        // A co-owner points the channel elsewhere without typing a token: the owner's token does not follow.
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://collector.example", topic: "home"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == nil)
        // A new address with its own token in the same form keeps that token.
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.example", topic: "home", accessToken: "tk_new"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == "tk_new")
        // Another port on the same host is another server.
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.example:8443", topic: "home"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == nil)
        // So is a webhook's other path.
        try channels.save(PushChannelInput(kind: "webhook", url: "https://hooks.example/a", accessToken: "tk_hook"), in: owner.household)
        try channels.save(PushChannelInput(kind: "webhook", url: "https://hooks.example/b"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.accessToken == nil)
    }

    @Test func aFailureIsStoredAsAStatusOrAReasonNeverAsTheAnswer() throws {
        let (fixture, owner, channels) = try fixture()
        let outbox = Outbox(database: fixture.database, clock: fixture.clock.wall)
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "home"), in: owner.household)
        let id = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        try outbox.recordFailure(try #require(try outbox.message(id, in: owner.household)), attempts: 1, failure: .status(502), retryAt: nil)
        let stored = try fixture.database.writer.read { db in try String.fetchOne(db, sql: "SELECT last_error FROM push_message WHERE id = ?", arguments: [id])
        }
        #expect(stored == "HTTP 502")
        // Rows written before kept the start of the answer and the system's words: only a status is read back.
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE push_message SET last_error = 'HTTP 500: {\"secret\":\"admin-password\"}' WHERE id = ?", arguments: [id])
        }
        #expect(try outbox.message(id, in: owner.household)?.lastError == .status(500))
        #expect(try outbox.status(in: owner.household).lastError == .status(500))
        #expect(PushFailure(stored: "Could not connect to the server. (port 22 open)") == .connectionFailed)
        for failure: PushFailure in [.timedOut, .refusedAddress, .unknownHost, .connectionFailed, .answerTooLarge, .invalidAddress, .noChannel, .status(404)] {
            #expect(PushFailure(stored: failure.stored) == failure)
        }
    }

    @Test func testsAreLimitedToFiveInTenMinutesPerHousehold() throws {
        let (fixture, owner, channels) = try fixture()
        let outbox = Outbox(database: fixture.database, clock: fixture.clock.wall)
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "home"), in: owner.household)
        for _ in 0..<Outbox.testsPerWindow {
            _ = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
            fixture.clock.advance(60)
        }
        #expect(throws: InventoryError.validation(["push_test": .pushTestLimited])) {
            _ = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        }
        // Another household is not held back by this one's tests.
        _ = try fixture.accounts.createHousehold(name: "Neighbours")
        let neighbours = try fixture.database.writer.read { db in
            HouseholdScope(try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Neighbours'")!)
        }
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "next-door"), in: neighbours)
        _ = try outbox.enqueueTest(in: neighbours, title: "t", body: "b")
        // Once the first test is ten minutes old, one more may go.
        fixture.clock.advance(Outbox.testWindow - Double(Outbox.testsPerWindow) * 60 + 1)
        _ = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        #expect(throws: InventoryError.validation(["push_test": .pushTestLimited])) {
            _ = try outbox.enqueueTest(in: owner.household, title: "t", body: "b")
        }
    }

    @Test func aDigestHourAlreadyPastTodayStartsTomorrow() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let channels = PushChannels(database: fixture.database, clock: fixture.clock.wall)
        // The fixture's clock is in the afternoon (UTC); hour 0 is past, hour 23 is not.
        let today = CalendarDay.today(in: .gmt, now: fixture.clock.now)
        let hour = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: fixture.clock.now).hour!
        try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "h", digestHour: "\(max(0, hour - 1))"), in: owner.household)
        #expect(try channels.channel(in: owner.household)?.digestSentOn == today)
        if hour < 23 {
            try channels.save(PushChannelInput(kind: "ntfy", url: "https://ntfy.sh", topic: "h", digestHour: "23"), in: owner.household)
            #expect(try channels.channel(in: owner.household)?.digestSentOn == nil)
        }
    }

    @Test func feedTokensAreStoredAsHashesAndReplacingStopsTheOldOne() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let feeds = CalendarFeeds(database: fixture.database, clock: fixture.clock.wall)
        let items = Items(database: fixture.database, clock: fixture.clock.wall)
        let fridge = try items.folders(in: owner.household, kind: .stock)[0].id
        var milk = ItemInput()
        milk.name = "Milk"
        milk.due = "2026-11-25"
        milk.remindAt = "2026-11-24T09:00"
        var rice = ItemInput()
        rice.name = "Rice"
        _ = try items.register([milk, rice], into: fridge, in: owner.household, by: owner.memberId, timeZone: .gmt)

        #expect(try feeds.createdAt(memberId: owner.memberId) == nil)
        let token = try feeds.create(memberId: owner.memberId)
        #expect(token.count >= 43)
        let stored = try fixture.database.writer.read { db in try Data.fetchOne(db, sql: "SELECT token_hash FROM calendar_feed")! }
        #expect(stored == Data(Crypto.sha256(Array(token.utf8))))
        #expect(try feeds.isCurrent(token, memberId: owner.memberId))
        let feed = try #require(try feeds.feed(token: token))
        #expect(feed.events.map(\.name) == ["Milk"])
        #expect(feed.events[0].remindAt == "2026-11-24T09:00:00Z")
        #expect(feed.events[0].folder == "Fridge")

        let replaced = try feeds.create(memberId: owner.memberId)
        #expect(try feeds.feed(token: token) == nil)
        #expect(try feeds.feed(token: replaced) != nil)
        #expect(!(try feeds.isCurrent(token, memberId: owner.memberId)))
        try feeds.remove(memberId: owner.memberId)
        #expect(try feeds.feed(token: replaced) == nil)
        #expect(try feeds.feed(token: "") == nil)
    }

    @Test func aFeedShowsOnlyItsOwnHouseholdsStockItems() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let items = Items(database: fixture.database, clock: fixture.clock.wall)
        let feeds = CalendarFeeds(database: fixture.database, clock: fixture.clock.wall)
        let invitation = try fixture.accounts.createHousehold(name: "Grandparents")
        let other = try fixture.accounts.session(
            token: try fixture.accounts.acceptInvitation(token: invitation, name: "G", login: "g", password: Fixture.password, userAgent: ""))!
        for (member, name) in [(owner, "Ours"), (other, "Theirs")] {
            var input = ItemInput()
            input.name = name
            input.due = "2026-12-01"
            let fridge = try items.folders(in: member.household, kind: .stock)[0].id
            _ = try items.register([input], into: fridge, in: member.household, by: member.memberId, timeZone: .gmt)
        }
        // A trashed item leaves the feed.
        var gone = ItemInput()
        gone.name = "Gone"
        gone.due = "2026-12-02"
        let fridge = try items.folders(in: owner.household, kind: .stock)[0].id
        let goneId = try items.register([gone], into: fridge, in: owner.household, by: owner.memberId, timeZone: .gmt)[0]
        try items.trash([goneId], in: owner.household, by: owner.memberId)
        #expect(try feeds.feed(token: try feeds.create(memberId: owner.memberId))?.events.map(\.name) == ["Ours"])
        #expect(try feeds.feed(token: try feeds.create(memberId: other.memberId))?.events.map(\.name) == ["Theirs"])
    }

    @Test func rebuildDropsPendingRecreatesFutureAndClearsPast() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let clock = fixture.clock
        let items = Items(database: fixture.database, clock: clock.wall)
        let schedule = ReminderSchedule(database: fixture.database, clock: clock.wall)
        let fridge = try items.folders(in: owner.household, kind: .stock)[0].id
        let now = clock.now
        func input(_ name: String, remind offset: TimeInterval) -> ItemInput {
            var input = ItemInput()
            input.name = name
            input.due = CalendarDay.today(in: .gmt, now: now).adding(days: 10).description
            input.remindAt = LocalDateTime.text(now.addingTimeInterval(offset), in: .gmt)
            return input
        }
        let ids = try items.register(
            [input("Past", remind: -7200), input("Sent", remind: -3600), input("Soon", remind: 3600), input("Later", remind: 86400)],
            into: fridge, in: owner.household, by: owner.memberId, timeZone: .gmt)
        // "Sent" already went out, "Later" too (as if its date had been moved since).
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id IN (?, ?)", arguments: [ids[1], ids[3]])
            try Outbox.enqueue(db, householdId: owner.household.householdId, kind: "reminder", title: "t", body: "b", items: [], at: now)
        }
        let report = try schedule.rebuild(in: owner.household, by: owner.memberId)
        // Pending: Past and Soon on items, plus one undelivered message.
        #expect(report == RebuildReport(dropped: 3, recreated: 2, cleared: 2))
        let after = try fixture.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, remind_at, reminder_sent_for, version FROM item ORDER BY id")
        }
        #expect(after.map { $0["remind_at"] as String? == nil } == [true, true, false, false])
        #expect(after.allSatisfy { ($0["reminder_sent_for"] as String?) == nil })
        #expect(after.map { $0["version"] as Int } == [2, 2, 1, 1])
        #expect(try fixture.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_message") } == 0)
        #expect(try items.history(of: ids[0], in: owner.household).first?.detail == "remind_at")
    }
}
