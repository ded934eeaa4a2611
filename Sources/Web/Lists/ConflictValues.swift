import Foundation
import Inventory

/// The conflict page's words for item fields: labels, and stored codes (piece, unopened), dates,
/// folders and pictures shown as every other page shows them.
struct ConflictValues {
    let t: Catalog
    let zone: TimeZone
    let timeZoneId: String
    let folders: [Folder]

    static func labelKey(_ field: ItemMerge.Field) -> String {
        field == .item(.name) ? "field_item_name" : "field_\(field.rawValue)"
    }

    func label(_ field: ItemMerge.Field) -> String { t[named: Self.labelKey(field)] }

    /// Fields a folder of `kind` has: dates and status on stock lists, urgency on shopping lists.
    func applies(_ field: ItemMerge.Field, to kind: FolderKind) -> Bool {
        switch field {
        case .folder: true
        case .item(let field): field.fits(kind)
        }
    }

    func text(_ field: ItemMerge.Field, _ snapshot: ItemSnapshot) -> String {
        let value = ItemMerge.value(field, snapshot)
        switch field {
        case .folder: return folders.first { $0.id == snapshot.folderId }.map { displayName($0, t) } ?? value
        case .item(.unit): return t[.unit, value]
        case .item(.kind): return t[.kind, value]
        case .item(.status): return t[.status, value]
        case .item(.urgent): return t[value == "1" ? .urgent : .notUrgent]
        case .item(.due): return value.isEmpty ? "—" : CalendarDay(value).map { DisplayFormat.day($0, locale: t) } ?? value
        case .item(.remindAt):
            guard !value.isEmpty else { return "—" }
            return LocalDateTime.instant(value, in: zone).map { DisplayFormat.dateTime(Timestamp($0), timeZone: timeZoneId, locale: t) }
                ?? value
        case .item(.picture):
            switch Picture(formValue: value) {
            case .photo: return t[.pictureCurrentPhoto]
            case .illustration(let slug): return t[.illustration, slug]
            case nil: return t[.pictureNone]
            }
        default: return value.isEmpty ? "—" : value
        }
    }
}
