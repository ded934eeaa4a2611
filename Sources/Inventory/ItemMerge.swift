import Foundation
import Tagged

/// An item's editable fields at one moment, as the editor shows them: the form's text plus the folder.
public struct ItemSnapshot: Sendable, Equatable {
    public var input: ItemInput
    public var folderId: Folder.ID
    /// The item's `updatedAt` then, when known: history after it is what others did since.
    public var updatedAt: Timestamp?

    public init(input: ItemInput, folderId: Folder.ID, updatedAt: Timestamp? = nil) {
        self.input = input
        self.folderId = folderId
        self.updatedAt = updatedAt
    }

    public init(_ item: Item, timeZone: TimeZone) {
        self.init(input: ItemInput(item, timeZone: timeZone), folderId: item.folderId, updatedAt: item.updatedAt)
    }
}

/// Three-way merge of an edit made on a stale form: `base` is what the person loaded, `mine` what
/// they saved, `theirs` what is stored now. A field only one side changed takes that side's value;
/// a field both changed to different values is a clash for the person to decide. Without a base
/// (a form from before bases were sent) every field that differs is a clash: nothing is guessed.
public struct ItemMerge: Sendable, Equatable {
    /// What a merge goes over: the item's folder and its editable fields, named as the history and
    /// the form name them.
    public enum Field: Hashable, Sendable, CaseIterable, RawRepresentable {
        case folder
        case item(ItemField)

        public static var allCases: [Field] { [.folder] + ItemField.allCases.map(Field.item) }

        public init?(rawValue: String) {
            if rawValue == "folder" {
                self = .folder
            } else if let field = ItemField(rawValue: rawValue) {
                self = .item(field)
            } else {
                return nil
            }
        }

        public var rawValue: String {
            switch self {
            case .folder: "folder"
            case .item(let field): field.rawValue
            }
        }
    }

    /// Mine where I changed, theirs where they changed; for clashes, mine until decided.
    public let merged: ItemSnapshot
    /// Fields the other side changed and I did not, so taken from the stored item.
    public let takenFromTheirs: [Field]
    /// Fields I changed and they did not.
    public let takenFromMine: [Field]
    /// Fields both changed to different values.
    public let clashes: [Field]

    public var hasClashes: Bool { !clashes.isEmpty }

    /// `folderKinds` tells the kind of the folders involved: when the merge would move my edit into
    /// a folder of the other kind, fields I typed that the kind lacks (a due date on a shopping
    /// list) would be dropped, so the folder becomes a clash instead.
    public init(base: ItemSnapshot?, mine: ItemSnapshot, theirs: ItemSnapshot, folderKinds: [Folder.ID: FolderKind] = [:]) {
        var merged = mine
        var fromTheirs: [Field] = []
        var fromMine: [Field] = []
        var clashes: [Field] = []
        for field in Field.allCases {
            let m = Self.comparable(field, mine)
            let t = Self.comparable(field, theirs)
            guard let base else {
                if m != t { clashes.append(field) }
                continue
            }
            let b = Self.comparable(field, base)
            switch (m != b, t != b) {
            case (false, true):
                Self.copy(field, from: theirs, to: &merged)
                fromTheirs.append(field)
            case (true, false):
                fromMine.append(field)
            case (true, true) where m != t:
                clashes.append(field)
            default:
                break
            }
        }
        if fromTheirs.contains(.folder), let kind = folderKinds[theirs.folderId], let mineKind = folderKinds[mine.folderId], kind != mineKind {
            let lost = ItemField.allCases.filter { !$0.fits(kind) }.map(Field.item)
            if lost.contains(where: { fromMine.contains($0) || clashes.contains($0) }) {
                fromTheirs.removeAll { $0 == .folder }
                clashes.insert(.folder, at: 0)
                merged.folderId = mine.folderId
            }
        }
        self.merged = merged
        takenFromTheirs = fromTheirs
        takenFromMine = fromMine
        self.clashes = clashes
    }

    /// A field's text as the form sends it (`folder` as the folder id).
    public static func value(_ field: Field, _ snapshot: ItemSnapshot) -> String {
        switch field {
        case .folder: "\(snapshot.folderId)"
        case .item(let field): field.text(in: snapshot.input)
        }
    }

    /// The value as `ItemField.comparable(in:)` sees it: what a person would call the same.
    static func comparable(_ field: Field, _ snapshot: ItemSnapshot) -> String {
        switch field {
        case .folder: ItemField.comparable(value(field, snapshot))
        case .item(let field): field.comparable(in: snapshot.input)
        }
    }

    static func copy(_ field: Field, from source: ItemSnapshot, to target: inout ItemSnapshot) {
        set(field, value(field, source), in: &target)
    }

    /// Sets a field from the text a form sends for it (see `value`); a folder that is not a number is ignored.
    public static func set(_ field: Field, _ text: String, in snapshot: inout ItemSnapshot) {
        switch field {
        case .folder: if let id = Folder.ID(text) { snapshot.folderId = id }
        case .item(let field): field.set(text, in: &snapshot.input)
        }
    }
}
