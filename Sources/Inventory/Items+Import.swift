import Foundation
import GRDB

/// One row of an imported items file, as text, already mapped to Zaiko's codes where the file
/// used a label (units, kinds, statuses). `fields` holds only the columns the file has, by the
/// item form's field names (`ItemField`'s).
public struct ImportRow: Sendable, Equatable {
    /// The line of the file the row starts on (the header is line 1).
    public var line: Int
    /// The `id` cell: an item of this household to update, or "" for a new item.
    public var id: String
    /// The `folder` cell: a folder's name, or "" for the folder chosen on the form.
    public var folder: String
    public var fields: [String: String]

    public init(line: Int, id: String = "", folder: String = "", fields: [String: String] = [:]) {
        self.line = line
        self.id = id
        self.folder = folder
        self.fields = fields
    }
}

/// What is wrong with one cell: its line, its column and the problem (the item editor's own
/// where the editor checks the same thing). `value` is the cell as the file had it.
public struct ImportProblem: Sendable, Equatable {
    public let line: Int
    public let column: String
    public let problem: FieldProblem
    public let value: String
}

/// A row that passed every check: what it will write.
public struct PlannedImportRow: Sendable, Equatable {
    public let line: Int
    /// The item it updates; nil for a new item.
    public let itemId: Item.ID?
    public let folderId: Folder.ID
    public let values: ItemValues
}

/// What an import would do (or did): rows to add and update, and every problem found.
public struct ImportPlan: Sendable, Equatable {
    public var rows: [PlannedImportRow] = []
    public var problems: [ImportProblem] = []
    public var newCount: Int { rows.count { $0.itemId == nil } }
    public var updatedCount: Int { rows.count { $0.itemId != nil } }
    /// The folder most rows went to, for the page shown after the import.
    public var mainFolderId: Folder.ID? {
        Dictionary(grouping: rows, by: \.folderId).max { $0.value.count < $1.value.count }?.key
    }
}

extension Items {
    /// Checks every row against the household as it is now, writing nothing. `folderIds` maps a
    /// folder name (lowercased, as the reader may write it: stored or shown in a language) to its id.
    public func planImport(
        _ rows: [ImportRow], defaultFolderId: Folder.ID, folderIds: [String: Folder.ID], in scope: HouseholdScope, timeZone: TimeZone
    ) throws -> ImportPlan {
        try database.writer.read { db in
            try Self.plan(db, rows, defaultFolderId: defaultFolderId, folderIds: folderIds, householdId: scope.householdId, timeZone: timeZone)
        }
    }

    /// Checks the rows again and, when none has a problem, writes them all in one transaction: new
    /// items as the batch editor registers them, updates as the item editor saves them (history,
    /// remembered products). With a problem nothing is written and the plan says what is wrong.
    public func runImport(
        _ rows: [ImportRow], defaultFolderId: Folder.ID, folderIds: [String: Folder.ID], in scope: HouseholdScope, by memberId: Member.ID, timeZone: TimeZone
    ) throws -> ImportPlan {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let plan = try Self.plan(db, rows, defaultFolderId: defaultFolderId, folderIds: folderIds, householdId: scope.householdId, timeZone: timeZone)
            guard plan.problems.isEmpty else { return plan }
            for row in plan.rows {
                let folder = try Self.folder(db, row.folderId, scope.householdId)
                if let id = row.itemId {
                    try Self.importUpdate(db, id, row.values, into: folder, householdId: scope.householdId, by: memberId, at: time)
                } else {
                    var draft = Item.Draft(householdId: scope.householdId, folderId: folder.id, name: row.values.name, createdAt: time, updatedAt: time)
                    Self.apply(row.values, to: &draft)
                    let item = try draft.insertAndFetch(db, as: Item.self)
                    try Self.record(db, item, "created", folder.name, by: memberId, at: time)
                    try Products.remember(db, item, at: time)
                }
            }
            return plan
        }
    }

    /// The item editor's save without a merge (the row was read in this transaction): a row that
    /// changes nothing writes nothing.
    static func importUpdate(
        _ db: Database, _ id: Item.ID, _ values: ItemValues, into folder: Folder, householdId: Household.ID, by memberId: Member.ID, at time: Timestamp
    )
        throws
    {
        var item = try Self.item(db, id, householdId)
        let before = item
        Self.apply(values, to: &item.draft)
        Self.leaveBasket(&item.draft, for: folder.kind)
        item.folderId = folder.id
        let changed = Self.changedFields(before, item)
        guard !changed.isEmpty || before.folderId != item.folderId else { return }
        item.version += 1
        item.updatedAt = time
        try item.update(db)
        if before.folderId != item.folderId {
            try Self.record(db, item, "moved", from: before.folderId, to: item.folderId, by: memberId, at: time)
        }
        if !changed.isEmpty { try Self.record(db, item, "changed", changed.joined(separator: ","), by: memberId, at: time) }
        try Products.remember(db, item, at: time)
    }

    static func plan(
        _ db: Database, _ rows: [ImportRow], defaultFolderId: Folder.ID, folderIds: [String: Folder.ID], householdId: Household.ID, timeZone: TimeZone
    ) throws -> ImportPlan {
        let defaultFolder = try Self.folder(db, defaultFolderId, householdId)
        var plan = ImportPlan()
        var seenIds: Set<Item.ID> = []
        for row in rows {
            var problems: [ImportProblem] = []
            func problem(_ column: String, _ reason: FieldProblem, _ value: String) {
                problems.append(ImportProblem(line: row.line, column: column, problem: reason, value: value))
            }

            // An id names an item of this household outside the trash, once per file; anything else is never an update.
            var existing: Item?
            let idText = row.id.trimmingCharacters(in: .whitespaces)
            if !idText.isEmpty {
                if let id = Item.ID(idText), id.rawValue > 0, let item = try? Self.item(db, id, householdId) {
                    if seenIds.insert(id).inserted { existing = item } else { problem("id", .importIdRepeated, idText) }
                } else {
                    problem("id", .importIdUnknown, idText)
                }
            }

            var folder = defaultFolder
            let folderText = row.folder.trimmingCharacters(in: .whitespaces)
            if !folderText.isEmpty {
                if let id = folderIds[folderText.lowercased()], let found = try? Self.folder(db, id, householdId) {
                    folder = found
                } else {
                    problem("folder", .importFolderUnknown, folderText)
                }
            } else if let existing, let current = try? Self.folder(db, existing.folderId, householdId) {
                // An update without a folder keeps the item where it is.
                folder = current
            }

            var input = existing.map { ItemInput($0, timeZone: timeZone) } ?? ItemInput()
            let fields = row.fields
            for field in ItemField.allCases {
                guard let text = fields[field.rawValue] else { continue }
                switch field {
                case .urgent:
                    switch text.trimmingCharacters(in: .whitespaces) {
                    case "1": input.urgent = true
                    case "0", "": input.urgent = false
                    case let other: problem("urgent", .urgentInvalid, other)
                    }
                case _ where !field.isTyped:
                    // An empty choice (unit, kind, status) keeps what the item has (or the editor's default).
                    let choice = text.trimmingCharacters(in: .whitespaces)
                    if !choice.isEmpty { field.set(choice, in: &input) }
                default:
                    field.set(text, in: &input)
                }
            }

            switch ItemValidation.check(input, for: folder.kind, timeZone: timeZone) {
            case .success(let values):
                if problems.isEmpty { plan.rows.append(PlannedImportRow(line: row.line, itemId: existing?.id, folderId: folder.id, values: values)) }
            case .failure(let errors):
                for (field, key) in errors.fields.sorted(by: { Self.columnOrder($0.key.rawValue) < Self.columnOrder($1.key.rawValue) }) {
                    problem(field.rawValue, key, fields[field.rawValue] ?? "")
                }
            }
            plan.problems += problems
        }
        return plan
    }

    /// Problems of one line in the order of the file's usual columns.
    static func columnOrder(_ column: String) -> Int {
        (["id", "folder"] + ItemField.formOrder.map(\.rawValue)).firstIndex(of: column) ?? 99
    }
}
