import Foundation

/// What a person typed into one item form (or one draft of the batch editor), as text.
public struct ItemInput: Sendable, Equatable {
    public var name = ""
    public var quantity = "1"
    public var unit = "piece"
    public var kind = "other"
    public var note = ""
    public var barcode = ""
    /// "YYYY-MM-DD"
    public var due = ""
    /// "YYYY-MM-DDTHH:MM" in the household's time zone (a datetime-local field).
    public var remindAt = ""
    public var status = "unopened"
    public var urgent = false
    /// "photo:KEY", "illustration:SLUG" or "" (see `Picture`).
    public var picture = ""

    public init() {}

    /// The form's values for a stored item, as a form would send them back unchanged.
    public init(_ item: Item, timeZone: TimeZone) {
        name = item.name
        quantity = Quantity.text(item.quantity)
        unit = item.unit
        kind = item.kind
        note = item.note
        barcode = item.barcode ?? ""
        due = item.due ?? ""
        remindAt = Timestamp.date(from: item.remindAt).map { LocalDateTime.text($0, in: timeZone) } ?? ""
        status = item.status ?? "unopened"
        urgent = item.urgent
        picture = item.picture?.formValue ?? ""
    }

    public static let units = Schema.units
    public static let kinds = Schema.kinds
    public static let statuses = Schema.statuses

    /// Urgency as the form sends it ("1" or "").
    public var urgentText: String { urgent ? "1" : "" }

    /// A draft nobody typed into: only defaults. The batch editor ignores these.
    public var isBlank: Bool {
        [name, note, barcode, due, remindAt, picture].allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            && ["", "1"].contains(quantity.trimmingCharacters(in: .whitespaces))
    }
}

/// An item's values once checked, ready to store.
public struct ItemValues: Sendable, Equatable {
    public var name: String
    public var quantity: Double
    public var unit: String
    public var kind: String
    public var note: String
    public var barcode: String?
    public var due: String?
    /// UTC ISO-8601.
    public var remindAt: String?
    public var status: String?
    public var urgent: Bool
    public var picture: Picture?
}

public enum ItemValidation {
    /// Checks `input` for a folder of `kind`; fields the kind does not have are dropped.
    /// Errors are message keys by field name.
    public static func check(_ input: ItemInput, for kind: FolderKind, timeZone: TimeZone) -> Result<ItemValues, FieldErrors> {
        var errors: [String: String] = [:]
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors["name"] = "item_name_required" } else if name.storedLength > 100 { errors["name"] = "name_too_long" }

        // NFKC first, so a full-width comma (１，５) becomes one the replacement sees.
        let quantityText = input.quantity.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: ",", with: ".")
        var quantity = 1.0
        if !quantityText.isEmpty {
            if let value = Double(quantityText), value.isFinite, value >= 0, value <= 1_000_000 {
                quantity = (value * 1000).rounded() / 1000
            } else {
                errors["quantity"] = "quantity_invalid"
            }
        }
        if !Schema.units.contains(input.unit) { errors["unit"] = "unit_invalid" }
        if !Schema.kinds.contains(input.kind) { errors["kind"] = "kind_invalid" }
        let note = input.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.storedLength > 1000 { errors["note"] = "note_too_long" }
        let typedBarcode = GTIN.typed(input.barcode)
        if let message = typedBarcode.messageKey { errors["barcode"] = message }
        // One spelling per product: a UPC-A typed by a scanner matches the EAN-13 read from a photo.
        var barcode = ""
        if case .code(let code) = typedBarcode { barcode = code }
        let pictureText = input.picture.trimmingCharacters(in: .whitespaces)
        let picture = Picture(formValue: pictureText)
        if !pictureText.isEmpty, picture == nil { errors["picture"] = "picture_invalid" }

        var due: String?
        var remindAt: String?
        var status: String?
        var urgent = false
        switch kind {
        case .stock:
            let dueText = input.due.trimmingCharacters(in: .whitespaces)
            if !dueText.isEmpty {
                if CalendarDay(dueText) != nil { due = dueText } else { errors["due"] = "due_invalid" }
            }
            let remindText = input.remindAt.trimmingCharacters(in: .whitespaces)
            if !remindText.isEmpty {
                if dueText.isEmpty {
                    errors["remind_at"] = "remind_needs_due"
                } else if let instant = LocalDateTime.instant(remindText, in: timeZone) {
                    remindAt = Timestamp.string(from: instant)
                } else {
                    errors["remind_at"] = "remind_invalid"
                }
            }
            if Schema.statuses.contains(input.status) { status = input.status } else { errors["status"] = "status_invalid" }
        case .shopping:
            urgent = input.urgent
        }
        guard errors.isEmpty else { return .failure(FieldErrors(errors)) }
        return .success(ItemValues(
            name: name, quantity: quantity, unit: input.unit, kind: input.kind, note: note, barcode: barcode.isEmpty ? nil : barcode,
            due: due, remindAt: remindAt, status: status, urgent: urgent, picture: picture))
    }

    /// True when the reminder comes after the due date's end: allowed, but worth a word.
    public static func remindsAfterDue(_ values: ItemValues, timeZone: TimeZone) -> Bool {
        guard let due = values.due.flatMap(CalendarDay.init), let remind = values.remindAt.flatMap(Timestamp.date(from:)) else { return false }
        return remind >= due.next.start(in: timeZone)
    }
}

extension String {
    /// Length as SQLite's length() counts it (code points), which the CHECK constraints use;
    /// a person counts 👍🏽 as one character, SQLite as two.
    public var storedLength: Int { unicodeScalars.count }
}

/// Field errors as message keys, an `Error` so `Result` can carry them.
public struct FieldErrors: Error, Sendable, Equatable {
    public let fields: [String: String]
    public init(_ fields: [String: String]) { self.fields = fields }
}

/// A calendar date with no time zone ("2026-11-22"), as due dates are.
public struct CalendarDay: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int

    /// Exactly "YYYY-MM-DD" in ASCII digits, and a day that exists.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
            (1900...9999).contains(y), (1...12).contains(m), d >= 1, d <= Self.daysIn(month: m, year: y)
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }

    /// Today in `timeZone`.
    public static func today(in timeZone: TimeZone, now: Date) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    public func adding(days: Int) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(byAdding: .day, value: days, to: start(in: .gmt))!
        return CalendarDay.today(in: .gmt, now: date)
    }

    public var next: CalendarDay { adding(days: 1) }

    /// Midnight at the start of this day in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    public var description: String {
        // Hand-padded: String(format:) is slow on Linux and this runs for every row.
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// "YYYY-MM-DDTHH:MM" as a datetime-local field sends it, in a given time zone.
public enum LocalDateTime {
    public static func instant(_ text: String, in timeZone: TimeZone) -> Date? {
        let pieces = text.split(separator: "T")
        guard pieces.count == 2, let day = CalendarDay(String(pieces[0])) else { return nil }
        let clock = pieces[1].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2, (0...23).contains(clock[0]), (0...59).contains(clock[1]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: clock[0], minute: clock[1]))
    }

    /// The field's text for a stored instant.
    public static func text(_ instant: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(format: "%04d-%02d-%02dT%02d:%02d", p.year!, p.month!, p.day!, p.hour!, p.minute!)
    }
}
