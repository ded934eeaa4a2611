import Foundation
import TestSupport
import Testing

@testable import Inventory

@Suite("Item merge: a stale edit merged with what others saved since")
struct ItemMergeTests {
    let utc = TimeZone(identifier: "UTC")!

    func snapshot(_ configure: (inout ItemInput) -> Void = { _ in }, folder: Int64 = 1) -> ItemSnapshot {
        var input = ItemInput()
        input.name = "Milk"
        input.quantity = "2"
        input.due = "2026-12-01"
        configure(&input)
        return ItemSnapshot(input: input, folderId: folder)
    }

    // MARK: - The merge alone

    @Test func fieldsOnlyOneSideChangedComeFromThatSide() {
        let base = snapshot()
        let theirs = snapshot { $0.due = "2026-12-05" }
        let mine = snapshot { $0.name = "Oat milk" }
        let merge = ItemMerge(base: base, mine: mine, theirs: theirs)
        #expect(!merge.hasClashes)
        #expect(merge.takenFromTheirs == [.item(.due)])
        #expect(merge.takenFromMine == [.item(.name)])
        #expect(merge.merged.input.name == "Oat milk")
        #expect(merge.merged.input.due == "2026-12-05")
    }

    @Test func onlyFieldsBothChangedDifferentlyClash() {
        let base = snapshot()
        let theirs = snapshot {
            $0.quantity = "3"
            $0.note = "same"
            $0.due = "2026-12-05"
        }
        let mine = snapshot {
            $0.quantity = "5"
            $0.note = "same"
            $0.name = "Oat milk"
        }
        let merge = ItemMerge(base: base, mine: mine, theirs: theirs)
        #expect(merge.clashes == [.item(.quantity)])
        #expect(merge.takenFromTheirs == [.item(.due)])
        // Mine stays in the merge until the person decides.
        #expect(merge.merged.input.quantity == "5")
        #expect(merge.merged.input.note == "same" && merge.merged.input.name == "Oat milk")
    }

    @Test func differencesNobodySeesAreNotChanges() {
        let base = snapshot { $0.note = "two\nlines" }
        // A browser sends CRLF, "2.0" for 2 and spaces around; the other side changed the name.
        let mine = snapshot {
            $0.note = "two\r\nlines "
            $0.quantity = "2.0"
        }
        let theirs = snapshot {
            $0.note = "two\nlines"
            $0.name = "Soy milk"
        }
        let merge = ItemMerge(base: base, mine: mine, theirs: theirs)
        #expect(merge.takenFromMine.isEmpty)
        #expect(merge.takenFromTheirs == [.item(.name)])
        #expect(!merge.hasClashes)
    }

    @Test func withoutABaseEveryDifferenceIsAClash() {
        let merge = ItemMerge(base: nil, mine: snapshot { $0.name = "Oat milk" }, theirs: snapshot { $0.due = "" })
        #expect(merge.clashes == [.item(.name), .item(.due)])
    }

    @Test func aMoveThatWouldDropWhatITypedIsAClash() {
        let stock: Int64 = 1
        let shopping: Int64 = 2
        let kinds: [Int64: FolderKind] = [stock: .stock, shopping: .shopping]
        let base = snapshot(folder: stock)
        let theirs = snapshot({ $0.due = "" }, folder: shopping)
        // I set a due date: moving to the shopping list would drop it.
        let mine = snapshot({ $0.due = "2026-12-24" }, folder: stock)
        let merge = ItemMerge(base: base, mine: mine, theirs: theirs, folderKinds: kinds)
        #expect(merge.clashes.contains(.folder))
        #expect(merge.merged.folderId == stock)
        // Changing only the name, the move is simply taken.
        let named = ItemMerge(base: base, mine: snapshot({ $0.name = "Oat" }, folder: stock), theirs: theirs, folderKinds: kinds)
        #expect(!named.hasClashes)
        #expect(named.merged.folderId == shopping)
    }

    // MARK: - Saving through Items.update

    @Test func aStaleEditWithoutClashIsSavedMergedKeepingTheOtherChange() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let ken = try #require(try fixture.accounts.session(token: try fixture.join("ken", role: .member)))
        let fridge = try fixture.firstFolder(.stock)
        var milk = ItemInput()
        milk.name = "Milk"
        milk.due = "2026-12-01"
        let id = try #require(try fixture.items.register([milk], into: fridge, in: owner.household, by: owner.memberId, timeZone: utc).first)
        let opened = try fixture.items.item(id, in: owner.household)
        let base = ItemSnapshot(opened, timeZone: utc)

        // Ken changes the due date.
        fixture.clock.advance(60)
        var kens = base.input
        kens.due = "2026-12-05"
        try fixture.items.update(
            id, with: kens, folderId: fridge, version: opened.version, base: base, in: owner.household, by: ken.memberId, timeZone: utc)

        // Aki, from the form opened before, changes the name.
        fixture.clock.advance(60)
        var akis = base.input
        akis.name = "Oat milk"
        let merged = try fixture.items.update(
            id, with: akis, folderId: fridge, version: opened.version, base: base, in: owner.household, by: owner.memberId, timeZone: utc)
        let saved = try fixture.items.item(id, in: owner.household)
        #expect(saved.name == "Oat milk")
        #expect(saved.due == "2026-12-05")
        #expect(saved.version == opened.version + 2)
        #expect(merged?.merge.takenFromTheirs == [.item(.due)])
        // The notice names the change merged with: Ken's.
        let history = try fixture.items.history(of: id, in: owner.household)
        let kenEvent = try #require(history.first { $0.id == merged?.latestEventId })
        #expect(kenEvent.memberName == "Ken" && kenEvent.detail == "due")
        #expect(history.first?.detail == "name")
    }

    @Test func aClashWritesNothingAndTheDecisionSavesAgainstTheStoredVersion() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let fridge = try fixture.firstFolder(.stock)
        var milk = ItemInput()
        milk.name = "Milk"
        let id = try #require(try fixture.items.register([milk], into: fridge, in: owner.household, by: owner.memberId, timeZone: utc).first)
        let opened = try fixture.items.item(id, in: owner.household)
        let base = ItemSnapshot(opened, timeZone: utc)
        fixture.clock.advance(60)
        var theirs = base.input
        theirs.quantity = "3"
        theirs.note = "from the market"
        try fixture.items.update(
            id, with: theirs, folderId: fridge, version: opened.version, base: base, in: owner.household, by: owner.memberId,
            timeZone: utc)
        let stored = try fixture.items.item(id, in: owner.household)

        var mine = base.input
        mine.quantity = "5"
        #expect(throws: InventoryError.conflict) {
            try fixture.items.update(
                id, with: mine, folderId: fridge, version: opened.version, base: base, in: owner.household, by: owner.memberId,
                timeZone: utc)
        }
        #expect(try fixture.items.item(id, in: owner.household) == stored)
        #expect(try fixture.items.history(of: id, since: opened.updatedAt, in: owner.household).map(\.detail) == ["quantity,note"])

        // The decision is posted against what is stored now: mine for quantity, theirs kept for the note.
        var decided = ItemSnapshot(stored, timeZone: utc).input
        decided.quantity = "5"
        let result = try fixture.items.update(
            id, with: decided, folderId: fridge, version: stored.version, base: ItemSnapshot(stored, timeZone: utc),
            in: owner.household, by: owner.memberId, timeZone: utc)
        #expect(result == nil)
        let saved = try fixture.items.item(id, in: owner.household)
        #expect(saved.quantity == 5 && saved.note == "from the market")
    }
}
