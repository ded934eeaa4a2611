import Foundation

/// What a person typed into one item form (or one draft of the batch editor), as text.
public struct ItemInput: Sendable, Equatable {
    public var name = ""
    public var quantity = "1"
    public var unit = ItemUnit.piece.rawValue
    public var kind = ItemKind.other.rawValue
    public var note = ""
    public var barcode = ""
    /// "YYYY-MM-DD"
    public var due = ""
    /// "YYYY-MM-DDTHH:MM" in the household's time zone (a datetime-local field).
    public var remindAt = ""
    public var status = ItemStatus.unopened.rawValue
    public var urgent = false
    /// "photo:KEY", "illustration:SLUG" or "" (see `Picture`).
    public var picture = ""

    public init() {}

    /// The form's values for a stored item, as a form would send them back unchanged.
    public init(_ item: Item, timeZone: TimeZone) {
        for field in ItemField.allCases { field.set(field.formText(of: item, timeZone: timeZone), in: &self) }
    }

    /// Urgency as the form sends it ("1" or "").
    public var urgentText: String { urgent ? "1" : "" }

    /// A draft nobody typed into: the fields a person types (not the choices, which always send a
    /// value) hold what an empty form does. The batch editor ignores these.
    public var isBlank: Bool {
        ItemField.allCases.allSatisfy { !$0.isTyped || !$0.isSet(in: self) }
    }
}

/// An item's values once checked, ready to store.
public struct ItemValues: Sendable, Equatable {
    public var name: String
    public var quantity: Double
    public var unit: ItemUnit
    public var kind: ItemKind
    public var note: String
    public var barcode: String?
    public var due: CalendarDay?
    public var remindAt: Timestamp?
    public var status: ItemStatus?
    public var urgent: Bool
    public var picture: Picture?
}

public enum ItemValidation {
    /// Checks `input` for a folder of `folderKind`; fields that kind of folder does not have are dropped.
    /// Errors are message keys by field.
    public static func check(_ input: ItemInput, for folderKind: FolderKind, timeZone: TimeZone) -> Result<ItemValues, ItemFieldErrors> {
        var errors: [ItemField: String] = [:]
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors[.name] = "item_name_required" } else if name.storedLength > 100 { errors[.name] = "name_too_long" }

        // NFKC first, so a full-width comma (１，５) becomes one the replacement sees.
        let quantityText = input.quantity.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: ",", with: ".")
        var quantity = 1.0
        if !quantityText.isEmpty {
            if let value = Double(quantityText), value.isFinite, value >= 0, value <= Quantity.maximum {
                quantity = (value * 1000).rounded() / 1000
            } else if let value = Double(quantityText), value.isFinite, value > Quantity.maximum {
                errors[.quantity] = "quantity_too_large"
            } else {
                errors[.quantity] = "quantity_invalid"
            }
        }
        let unit = ItemUnit(rawValue: input.unit)
        if unit == nil { errors[.unit] = "unit_invalid" }
        let kind = ItemKind(rawValue: input.kind)
        if kind == nil { errors[.kind] = "kind_invalid" }
        let note = input.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.storedLength > 1000 { errors[.note] = "note_too_long" }
        let typedBarcode = GTIN.typed(input.barcode)
        if let message = typedBarcode.messageKey { errors[.barcode] = message }
        // One spelling per product: a UPC-A typed by a scanner matches the EAN-13 read from a photo.
        var barcode = ""
        if case .code(let code) = typedBarcode { barcode = code }
        let pictureText = input.picture.trimmingCharacters(in: .whitespaces)
        let picture = Picture(formValue: pictureText)
        if !pictureText.isEmpty, picture == nil { errors[.picture] = "picture_invalid" }

        var due: CalendarDay?
        var remindAt: Timestamp?
        var status: ItemStatus?
        var urgent = false
        switch folderKind {
        case .stock:
            let dueText = input.due.trimmingCharacters(in: .whitespaces)
            if !dueText.isEmpty {
                due = CalendarDay(dueText)
                if due == nil { errors[.due] = "due_invalid" }
            }
            let remindText = input.remindAt.trimmingCharacters(in: .whitespaces)
            if !remindText.isEmpty {
                if dueText.isEmpty {
                    errors[.remindAt] = "remind_needs_due"
                } else if let instant = LocalDateTime.instant(remindText, in: timeZone) {
                    remindAt = Timestamp(instant)
                } else {
                    errors[.remindAt] = "remind_invalid"
                }
            }
            status = ItemStatus(rawValue: input.status)
            if status == nil { errors[.status] = "status_invalid" }
        case .shopping:
            urgent = input.urgent
        }
        guard errors.isEmpty, let unit, let kind else { return .failure(ItemFieldErrors(errors)) }
        return .success(
            ItemValues(
                name: name, quantity: quantity, unit: unit, kind: kind, note: note, barcode: barcode.isEmpty ? nil : barcode,
                due: due, remindAt: remindAt, status: status, urgent: urgent, picture: picture))
    }

    /// True when the reminder comes after the due date's end: allowed, but worth a word.
    public static func remindsAfterDue(_ values: ItemValues, timeZone: TimeZone) -> Bool {
        guard let due = values.due, let remind = values.remindAt else { return false }
        return remind.date >= due.next.start(in: timeZone)
    }
}

extension String {
    /// Length as SQLite's length() counts it (code points), which the CHECK constraints use;
    /// a person counts 👍🏽 as one character, SQLite as two.
    public var storedLength: Int { unicodeScalars.count }
}

/// One item form's errors as message keys by field, an `Error` so `Result` can carry them.
public struct ItemFieldErrors: Error, Sendable, Equatable {
    public let fields: [ItemField: String]
    public init(_ fields: [ItemField: String]) { self.fields = fields }
}

/// What stopped a save of item forms: each draft's errors by its position in the batch (an edited
/// item is draft 0). The names the form gives them (`0.name`) are the web layer's.
public struct ItemFormErrors: Error, Sendable, Equatable {
    public let drafts: [Int: [ItemField: String]]
    public init(_ drafts: [Int: [ItemField: String]]) { self.drafts = drafts }
}

/// Field errors as message keys, an `Error` so `Result` can carry them.
public struct FieldErrors: Error, Sendable, Equatable {
    public let fields: [String: String]
    public init(_ fields: [String: String]) { self.fields = fields }
}
