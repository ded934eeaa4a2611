import Testing

@testable import Inventory

/// What a draft typed for one kind of folder would lose in the other: the editor asks before
/// saving it there instead of dropping it.
@Suite("Fields a folder does not keep")
struct ItemInputFitTests {
    @Test func aShoppingListKeepsNoDueDateReminderOrStatus() {
        var input = ItemInput()
        input.name = "Milk"
        #expect(input.fieldsNotKept(in: .shopping) == [])
        input.due = "2026-11-25"
        input.remindAt = "2026-11-24T09:00"
        input.status = "opened"
        #expect(input.fieldsNotKept(in: .shopping) == [.due, .remindAt, .status])
        #expect(input.fieldsNotKept(in: .stock) == [])
        input.due = "  "
        input.remindAt = ""
        #expect(input.fieldsNotKept(in: .shopping) == [.status])
    }

    @Test func aStockListKeepsNoUrgency() {
        var input = ItemInput()
        #expect(input.fieldsNotKept(in: .stock) == [])
        input.urgent = true
        #expect(input.fieldsNotKept(in: .stock) == [.urgent])
        #expect(input.fieldsNotKept(in: .shopping) == [])
    }

    @Test func droppingClearsOnlyWhatTheFolderDoesNotKeep() {
        var input = ItemInput()
        input.name = "Milk"
        input.note = "cold"
        input.due = "2026-11-25"
        input.status = "opened"
        input.urgent = true
        input.dropFieldsNotKept(in: .shopping)
        #expect(input.due == "" && input.status == "unopened")
        #expect(input.name == "Milk" && input.note == "cold" && input.urgent)
        input.dropFieldsNotKept(in: .stock)
        #expect(!input.urgent)
    }
}
