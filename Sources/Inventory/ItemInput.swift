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

/// What a person edits of an item, checked: the form's fields as a stored `Item` keeps them (its
/// `values`), one column each.
public struct ItemValues: Codable, Sendable, Equatable {
    public var name: String
    /// The key of a stored photo (see `PhotoStore`).
    public var photo: String?
    /// A built-in illustration's slug (see `Illustrations`).
    public var illustration: String?
    public var quantity: Double
    public var unit: ItemUnit
    public var kind: ItemKind
    public var note: String
    public var barcode: String?
    /// The day it is due, in no time zone.
    public var due: CalendarDay?
    public var remindAt: Timestamp?
    public var status: ItemStatus?
    public var urgent: Bool

    /// What the item shows as its picture, if anything: a photo rather than an illustration.
    public var picture: Picture? {
        get { photo.map(Picture.photo) ?? illustration.map(Picture.illustration) }
        set { (photo, illustration) = (newValue?.photoKey, newValue?.illustrationSlug) }
    }
}

public enum ItemValidation {
    /// Checks `input` for a folder of `folderKind`; fields that kind of folder does not have are dropped.
    /// Errors are problems by field.
    public static func check(_ input: ItemInput, for folderKind: FolderKind, timeZone: TimeZone) -> Result<ItemValues, ItemFieldErrors> {
        var errors: [ItemField: FieldProblem] = [:]
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors[.name] = .itemNameRequired } else if name.storedLength > 100 { errors[.name] = .nameTooLong }

        // NFKC first, so a full-width comma (１，５) becomes one the replacement sees.
        let quantityText = input.quantity.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: ",", with: ".")
        var quantity = 1.0
        if !quantityText.isEmpty {
            if let value = Double(quantityText), value.isFinite, value >= 0, value <= Quantity.maximum {
                quantity = (value * 1000).rounded() / 1000
            } else if let value = Double(quantityText), value.isFinite, value > Quantity.maximum {
                errors[.quantity] = .quantityTooLarge
            } else {
                errors[.quantity] = .quantityInvalid
            }
        }
        let unit = ItemUnit(rawValue: input.unit)
        if unit == nil { errors[.unit] = .unitInvalid }
        let kind = ItemKind(rawValue: input.kind)
        if kind == nil { errors[.kind] = .kindInvalid }
        let note = input.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.storedLength > 1000 { errors[.note] = .noteTooLong }
        let typedBarcode = GTIN.typed(input.barcode)
        if let problem = typedBarcode.problem { errors[.barcode] = problem }
        // One spelling per product: a UPC-A typed by a scanner matches the EAN-13 read from a photo.
        var barcode = ""
        if case .code(let code) = typedBarcode { barcode = code }
        let pictureText = input.picture.trimmingCharacters(in: .whitespaces)
        let picture = Picture(formValue: pictureText)
        if !pictureText.isEmpty, picture == nil { errors[.picture] = .pictureInvalid }

        var due: CalendarDay?
        var remindAt: Timestamp?
        var status: ItemStatus?
        var urgent = false
        switch folderKind {
        case .stock:
            let dueText = input.due.trimmingCharacters(in: .whitespaces)
            if !dueText.isEmpty {
                due = CalendarDay(dueText)
                if due == nil { errors[.due] = .dueInvalid }
            }
            let remindText = input.remindAt.trimmingCharacters(in: .whitespaces)
            if !remindText.isEmpty {
                if dueText.isEmpty {
                    errors[.remindAt] = .remindNeedsDue
                } else if let instant = LocalDateTime.instant(remindText, in: timeZone) {
                    remindAt = Timestamp(instant)
                } else {
                    errors[.remindAt] = .remindInvalid
                }
            }
            status = ItemStatus(rawValue: input.status)
            if status == nil { errors[.status] = .statusInvalid }
        case .shopping:
            urgent = input.urgent
        }
        guard errors.isEmpty, let unit, let kind else { return .failure(ItemFieldErrors(errors)) }
        return .success(
            ItemValues(
                name: name, photo: picture?.photoKey, illustration: picture?.illustrationSlug, quantity: quantity, unit: unit, kind: kind,
                note: note, barcode: barcode.isEmpty ? nil : barcode, due: due, remindAt: remindAt, status: status, urgent: urgent))
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

/// One item form's errors by field, an `Error` so `Result` can carry them.
public struct ItemFieldErrors: Error, Sendable, Equatable {
    public let fields: [ItemField: FieldProblem]
    public init(_ fields: [ItemField: FieldProblem]) { self.fields = fields }
}

/// What stopped a save of item forms: each draft's errors by its position in the batch (an edited
/// item is draft 0). The names the form gives them (`0.name`) are the web layer's.
public struct ItemFormErrors: Error, Sendable, Equatable {
    public let drafts: [Int: [ItemField: FieldProblem]]
    public init(_ drafts: [Int: [ItemField: FieldProblem]]) { self.drafts = drafts }
}

/// Field errors by the form field's name, an `Error` so `Result` can carry them.
public struct FieldErrors: Error, Sendable, Equatable {
    public let fields: [String: FieldProblem]
    public init(_ fields: [String: FieldProblem]) { self.fields = fields }
}
