import Foundation

/// An item's editable field, declared once. Everything that goes over the fields one by one is
/// derived from here: the editor's form (`d0.name`) and its hidden `base.*` fields, the check's
/// error keys, which folders keep what, the three-way merge, the history's "changed" lines, and
/// (in Exchange) the items CSV. A new field is a case here, its column (a migration and `ItemValues`)
/// and the template that shows it: every switch below, and the CSV's, then fails to compile
/// until it says what the field does.
///
/// The declaration order is the item page's, which the hidden base fields and the conflict page's
/// rows follow; the form, the CSV and the history's lists of changed fields follow `formOrder`.
public enum ItemField: String, CaseIterable, Sendable {
    case name, quantity, unit, kind, status, due
    case remindAt = "remind_at"
    case urgent, barcode, picture, note

    /// Every field in the editor's order, which the items CSV, the history and the editor's notices
    /// follow: the status, first of the stock fields on the item page, sits after the reminder in
    /// the form.
    public static let formOrder: [ItemField] = allCases.flatMap { field -> [ItemField] in
        switch field {
        case .status: []
        case .remindAt: [.remindAt, .status]
        default: [field]
        }
    }

    /// Whether items in a folder of `kind` have this field: dates and status belong to stock,
    /// urgency to shopping lists. Moving an item to the other kind drops what it lacks.
    public func fits(_ kind: FolderKind) -> Bool {
        switch self {
        case .due, .remindAt, .status: kind == .stock
        case .urgent: kind == .shopping
        case .name, .quantity, .unit, .kind, .barcode, .picture, .note: true
        }
    }

    /// Whether a person types the field (or picks a picture) rather than choosing among options
    /// that always send a value: a draft with none of these set is blank.
    public var isTyped: Bool {
        switch self {
        case .name, .quantity, .due, .remindAt, .barcode, .picture, .note: true
        case .unit, .kind, .status, .urgent: false
        }
    }

    /// The field's text as the form sends it (`urgent` as "1" or "").
    public func text(in input: ItemInput) -> String {
        switch self {
        case .name: input.name
        case .quantity: input.quantity
        case .unit: input.unit
        case .kind: input.kind
        case .status: input.status
        case .due: input.due
        case .remindAt: input.remindAt
        case .urgent: input.urgentText
        case .barcode: input.barcode
        case .picture: input.picture
        case .note: input.note
        }
    }

    /// Sets the field from the text a form sends for it (see `text(in:)`).
    public func set(_ text: String, in input: inout ItemInput) {
        switch self {
        case .name: input.name = text
        case .quantity: input.quantity = text
        case .unit: input.unit = text
        case .kind: input.kind = text
        case .status: input.status = text
        case .due: input.due = text
        case .remindAt: input.remindAt = text
        case .urgent: input.urgent = text == "1"
        case .barcode: input.barcode = text
        case .picture: input.picture = text
        case .note: input.note = text
        }
    }

    /// The field's text with the differences a browser or the storage introduce and a person does
    /// not see taken out: surrounding spaces, CRLF line ends, "2" against "2.0", a UPC-A against
    /// its EAN-13. Two inputs hold the same value when these agree.
    public func comparable(in input: ItemInput) -> String {
        let text = Self.comparable(text(in: input))
        switch self {
        case .quantity:
            let number = text.precomposedStringWithCompatibilityMapping.replacingOccurrences(of: ",", with: ".")
            guard let value = Double(number.isEmpty ? "1" : number), value.isFinite else { return text }
            return Quantity.text((value * 1000).rounded() / 1000)
        case .barcode:
            if case .code(let code) = GTIN.typed(text) { return code }
            return text
        case .name, .unit, .kind, .status, .due, .remindAt, .urgent, .picture, .note:
            return text
        }
    }

    /// Form text without surrounding spaces and with one kind of line end.
    static func comparable(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `input` holds something other than the empty form's value here.
    public func isSet(in input: ItemInput) -> Bool {
        comparable(in: input) != comparable(in: ItemInput())
    }

    /// The field's text on the form for a stored item, as the form would send it back unchanged
    /// (the reminder in the household's time zone).
    func formText(of item: Item, timeZone: TimeZone) -> String {
        switch self {
        case .name: item.name
        case .quantity: Quantity.text(item.quantity)
        case .unit: item.unit.rawValue
        case .kind: item.kind.rawValue
        case .status: item.status?.rawValue ?? ItemInput().status
        case .due: item.due?.description ?? ""
        case .remindAt: item.remindAt.map { LocalDateTime.text($0.date, in: timeZone) } ?? ""
        case .urgent: item.urgent ? "1" : ""
        case .barcode: item.barcode ?? ""
        case .picture: item.picture?.formValue ?? ""
        case .note: item.note
        }
    }

    /// Clears the field in a stored item that moves to a folder that does not keep it (see
    /// `fits`); a field every folder keeps stays as it is.
    func drop(from item: inout Item.Draft) {
        switch self {
        case .status: item.status = nil
        case .due: item.due = nil
        case .remindAt: item.remindAt = nil
        case .urgent: item.urgent = false
        case .name, .quantity, .unit, .kind, .barcode, .picture, .note: break
        }
    }

    /// Whether a save changed the field between two stored versions of an item (the history's
    /// "changed" line names the fields that did).
    func differs(_ a: Item, _ b: Item) -> Bool {
        switch self {
        case .name: a.name != b.name
        case .quantity: a.quantity != b.quantity
        case .unit: a.unit != b.unit
        case .kind: a.kind != b.kind
        case .status: a.status != b.status
        case .due: a.due != b.due
        case .remindAt: a.remindAt != b.remindAt
        case .urgent: a.urgent != b.urgent
        case .barcode: a.barcode != b.barcode
        case .picture: a.picture != b.picture
        case .note: a.note != b.note
        }
    }

    /// The fields that differ between two stored versions of an item, in the form's order.
    static func changed(from before: Item, to after: Item) -> [ItemField] {
        formOrder.filter { $0.differs(before, after) }
    }
}
