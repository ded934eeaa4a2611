import Foundation
import HTTPServer
import Inventory

/// What an item form was opened with: the stored version and every editable field as it was
/// then, carried in hidden `base.*` fields. A save made after someone else's is merged with
/// theirs against it (see `ItemMerge`), so a field this person never touched is never reverted.
/// A member who forges a base only changes how their own edit merges: they could overwrite the
/// item by reloading the form anyway.
struct EditBase: Sendable {
    var snapshot: ItemSnapshot
    var version: Int

    init(_ item: Item, timeZone: TimeZone) {
        snapshot = ItemSnapshot(item, timeZone: timeZone)
        version = item.version
    }

    /// The base a form sent back; nil for a form without one (sent before bases existed).
    init?(form: Parameters) {
        guard let version = form["version"].flatMap({ Int($0) }), let folder = form["base.folder"].flatMap({ Folder.ID($0) }) else { return nil }
        var snapshot = ItemSnapshot(input: ItemInput(), folderId: folder, updatedAt: form["base.at"].flatMap(Timestamp.init))
        for field in ItemMerge.Field.allCases {
            ItemMerge.set(field, form["base.\(field.rawValue)"] ?? "", in: &snapshot)
        }
        self.snapshot = snapshot
        self.version = version
    }

    /// The hidden fields that carry it (the version has its own field in each form).
    var hiddenFields: [FormField] {
        ItemMerge.Field.allCases.map { FormField.hidden("base.\($0.rawValue)", ItemMerge.value($0, snapshot)) }
            + [.hidden("base.at", snapshot.updatedAt?.description ?? "")]
    }
}
