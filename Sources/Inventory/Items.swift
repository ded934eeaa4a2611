import Foundation
import GRDB
import Tagged

/// Which items of a list to show: filters combine (AND), kinds among themselves (OR).
public struct ListFilter: Sendable, Equatable {
    public var text: String
    public var kinds: [ItemKind]
    public var status: ItemStatus?
    /// Only the items expired in this window (`DueState.expired`: due before its today), so
    /// "expired" means the same day in the household's time zone as the row's red word.
    public var expiredIn: DueWindow?

    public init(text: String = "", kinds: [String] = [], status: String? = nil, expiredIn: DueWindow? = nil) {
        self.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Known kinds only, each once: there are 9, whatever the query repeats.
        var seen = Set<ItemKind>()
        self.kinds = kinds.compactMap(ItemKind.init(rawValue:)).filter { seen.insert($0).inserted }
        self.status = status.flatMap(ItemStatus.init(rawValue:))
        self.expiredIn = expiredIn
    }

    public var isFiltered: Bool { !text.isEmpty || !kinds.isEmpty || status != nil || expiredIn != nil }
}

/// The statements of a list page. GRDB keeps every cached statement for the life of the
/// connection, so their text must never be built from a request's values: it depends only on
/// which filters are set and on the folder's kind (32 texts at most); the kinds, however many,
/// go in as one JSON array read with `json_each`.
struct ListQuery {
    let whereClause: String
    let arguments: StatementArguments
    let order: String
    let isFiltered: Bool

    init(folder: Folder, filter: ListFilter) throws {
        var conditions = ["folder_id = ?", "deleted_at IS NULL"]
        var arguments: StatementArguments = [folder.id]
        if !filter.kinds.isEmpty {
            conditions.append("kind IN (SELECT value FROM json_each(?))")
            arguments += [String(decoding: try JSONEncoder().encode(filter.kinds), as: UTF8.self)]
        }
        if let status = filter.status {
            conditions.append("status = ?")
            arguments += [status]
        }
        if !filter.text.isEmpty {
            conditions.append("search_text LIKE ? ESCAPE '\\'")
            arguments += [SearchText.likePattern(filter.text)]
        }
        if let window = filter.expiredIn {
            // Due dates are "YYYY-MM-DD" text: before today in text order is before today.
            conditions.append("due IS NOT NULL AND due < ?")
            arguments += [window.today.description]
        }
        whereClause = conditions.joined(separator: " AND ")
        self.arguments = arguments
        order = folder.kind == .stock ? "due IS NULL, due, name" : "urgent DESC, name"
        position = folder.kind == .stock ? "due IS NULL, IFNULL(due, ''), name, id" : "1 - urgent, '', name, id"
        isFiltered = filter.isFiltered
    }

    /// The list's order as an ascending row value, ending with the id: `ListPosition`'s fields.
    let position: String

    var countSQL: String { "SELECT COUNT(*) FROM item WHERE \(whereClause)" }
    var pageSQL: String { "SELECT * FROM item WHERE \(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?" }
    /// The first items after a position (the first of the list without one), the id breaking ties.
    func sliceSQL(after: Bool) -> String {
        "SELECT * FROM item WHERE \(whereClause)\(after ? " AND (\(position)) > (?, ?, ?, ?)" : "") ORDER BY \(order), id LIMIT ?"
    }
}

/// Where a page of the API's list ends: the last item's place in the list's order (stock: due
/// date, none last; shopping: urgent first; then name and id). The next page starts after it, so
/// rows added, moved or removed before it between two reads shift nothing.
public struct ListPosition: Sendable, Equatable, Codable {
    /// Stock: 1 without a due date; shopping: 0 when urgent.
    let rank: Int
    /// Stock: the due date, empty without one; shopping: empty.
    let due: String
    let name: String
    let id: Int64

    public init(after item: Item, kind: FolderKind) {
        switch kind {
        case .stock: (rank, due) = (item.due == nil ? 1 : 0, item.due?.description ?? "")
        case .shopping: (rank, due) = (item.urgent ? 0 : 1, "")
        }
        (name, id) = (item.name, item.id.rawValue)
    }

    /// A position as a client sent it back: nil unless every field is one a list could hold.
    public func checked() -> ListPosition? {
        (0...1).contains(rank) && due.utf8.count <= 10 && name.utf8.count <= 1000 && id > 0 ? self : nil
    }
}

public struct ListPage: Sendable {
    public let items: [Item]
    public let total: Int
    public let page: Int
    public let pages: Int
    public static let size = 50
}

/// One line of an item's history.
public struct ItemEvent: Sendable, Equatable, Identifiable {
    /// A history line's id (table `item_event`).
    public typealias ID = Tagged<ItemEvent, Int64>

    public let id: ID
    public let kind: String
    public let detail: String
    public let memberName: String?
    public let at: Timestamp
    /// The cook that made this change, if one did: the item page offers its Undo.
    public var cookId: Cook.ID? = nil
    /// A move or a purchase: the folders it went between, named when read (`detail` then holds
    /// only what else changed, such as "1 → 3"). Nil for other lines and for lines written before
    /// the folders were kept by id, whose `detail` is their text as written.
    public var folders: FolderStep? = nil
}

/// The two folders of a move or a purchase, as they are now; nil for a folder purged from the trash.
public struct FolderStep: Sendable, Equatable {
    public struct Place: Sendable, Equatable {
        public let id: Folder.ID
        public let name: String
        /// The starter folder's key, when it is one: its name then reads in each reader's language.
        public let starter: String?
    }

    public let from: Place?
    public let to: Place?
}

/// What `Items.update` did with a stale form: merged with what others changed since it was opened.
public struct MergedEdit: Sendable, Equatable {
    public let merge: ItemMerge
    /// The newest history line before this save: who made the change the edit was merged with.
    public let latestEventId: ItemEvent.ID?
}

/// The items of a household: lists, the editor, quick and bulk actions, trash and history.
/// Every method takes the session's `HouseholdScope`; an id of another household's row is `.notFound`.
public struct Items: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public static let trashDays = 30

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    func stamp() -> Timestamp { Timestamp(clock.now()) }

    /// Today in `timeZone` by this store's clock.
    public func today(in timeZone: TimeZone) -> CalendarDay { CalendarDay.today(in: timeZone, now: clock.now()) }

    // MARK: - Reading

    public func folder(_ id: Folder.ID, in scope: HouseholdScope) throws -> Folder {
        try database.writer.read { db in try Self.folder(db, id, scope.householdId) }
    }

    static func folder(_ db: Database, _ id: Folder.ID, _ householdId: Household.ID) throws -> Folder {
        guard
            let folder = try Folder.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM folder WHERE id = ? AND household_id = ? AND deleted_at IS NULL"), arguments: [id, householdId])
        else { throw InventoryError.notFound }
        return folder
    }

    public func folders(in scope: HouseholdScope, kind: FolderKind? = nil) throws -> [Folder] {
        try database.writer.read { db in try Self.folders(db, scope.householdId, kind: kind) }
    }

    static func folders(_ db: Database, _ householdId: Household.ID, kind: FolderKind? = nil) throws -> [Folder] {
        try Folder.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM folder WHERE household_id = ? AND deleted_at IS NULL AND (? IS NULL OR kind = ?) ORDER BY position, id
                    """), arguments: [householdId, kind?.rawValue, kind?.rawValue])
    }

    /// One page of a list in its order: stock by due date (none last), shopping urgent first; then name.
    public func page(of folder: Folder, filter: ListFilter, page requested: Int) throws -> ListPage {
        let query = try ListQuery(folder: folder, filter: filter)
        return try database.writer.read { db in try Self.page(db, query, of: folder, page: requested) }
    }

    static func page(_ db: Database, _ query: ListQuery, of folder: Folder, page requested: Int) throws -> ListPage {
        let total = try count(db, query, of: folder)
        let pages = max(1, (total + ListPage.size - 1) / ListPage.size)
        let page = min(max(1, requested), pages)
        let items = try Item.fetchList(
            db.cachedStatement(sql: query.pageSQL), arguments: query.arguments + [ListPage.size, (page - 1) * ListPage.size])
        return ListPage(items: items, total: total, page: page, pages: pages)
    }

    /// `limit` items of a list after `position` (from the first without one), in the list page's
    /// order and with its filter, and how many match in all (the API's pages, whose size the
    /// caller picks).
    public func slice(of folder: Folder, filter: ListFilter, after position: ListPosition?, limit: Int) throws -> (items: [Item], total: Int) {
        let query = try ListQuery(folder: folder, filter: filter)
        let after: StatementArguments = position.map { [$0.rank, $0.due, $0.name, $0.id] } ?? []
        return try database.writer.read { db in
            let total = try Self.count(db, query, of: folder)
            let items = try Item.fetchList(db.cachedStatement(sql: query.sliceSQL(after: position != nil)), arguments: query.arguments + after + [limit])
            return (items, total)
        }
    }

    /// How many items a list shows with `query`'s filter: unfiltered, the folder knows its count.
    static func count(_ db: Database, _ query: ListQuery, of folder: Folder) throws -> Int {
        query.isFiltered
            ? try Int.fetchOne(db.cachedStatement(sql: query.countSQL), arguments: query.arguments) ?? 0
            : try Int.fetchOne(db.cachedStatement(sql: "SELECT item_count FROM folder WHERE id = ?"), arguments: [folder.id]) ?? 0
    }

    public func item(_ id: Item.ID, in scope: HouseholdScope) throws -> Item {
        try database.writer.read { db in try Self.item(db, id, scope.householdId) }
    }

    /// One item of the household, in the trash or not. Its statement is prepared once per
    /// connection: preparing it cost a fifth of the item editor, which reads one item.
    static func item(_ db: Database, _ id: Item.ID, _ householdId: Household.ID, deleted: Bool = false) throws -> Item {
        let sql = "SELECT * FROM item WHERE id = ? AND household_id = ? AND deleted_at IS \(deleted ? "NOT " : "")NULL"
        guard let item = try Item.fetchOne(db.cachedStatement(sql: sql), arguments: [id, householdId]) else { throw InventoryError.notFound }
        return item
    }

    /// An item of the household in the trash, and the kind of the list it came from (which may be
    /// in the trash too); any other id is not found.
    public func trashedItem(_ id: Item.ID, in scope: HouseholdScope) throws -> (item: Item, kind: FolderKind) {
        try database.writer.read { db in
            let item = try Self.item(db, id, scope.householdId, deleted: true)
            guard
                let kind = try String.fetchOne(
                    db, sql: "SELECT kind FROM folder WHERE id = ? AND household_id = ?", arguments: [item.folderId, scope.householdId]
                ).flatMap(FolderKind.init(rawValue:))
            else { throw InventoryError.notFound }
            return (item, kind)
        }
    }

    /// Where an item is now, for an action from a page that showed it elsewhere: in a folder, in
    /// the trash (and who put it there, from its history), or gone for good (the change feed
    /// remembers this household's item). Any other id, another household's included, is not found.
    public func whereabouts(of id: Item.ID, in scope: HouseholdScope) throws -> ItemWhereabouts {
        try database.writer.read { db in
            guard let item = try Item.fetchOne(db, sql: "SELECT * FROM item WHERE id = ? AND household_id = ?", arguments: [id, scope.householdId])
            else {
                let known = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM change_record WHERE household_id = ? AND entity = 'item' AND entity_id = ? LIMIT 1",
                    arguments: [scope.householdId, id])
                guard known == true else { throw InventoryError.notFound }
                return .gone
            }
            guard item.deletedAt != nil else { return .inFolder(item.folderId, name: item.name) }
            let by = try String.fetchOne(
                db,
                sql: """
                    SELECT m.name FROM item_event e JOIN member m ON m.id = e.member_id
                    WHERE e.item_id = ? AND e.household_id = ? AND e.kind = 'deleted' ORDER BY e.id DESC LIMIT 1
                    """, arguments: [id, scope.householdId])
            return .inTrash(name: item.name, by: by)
        }
    }

    public func history(of itemId: Item.ID, in scope: HouseholdScope) throws -> [ItemEvent] {
        try database.writer.read { db in try Self.history(db, of: itemId, scope.householdId) }
    }

    static func history(_ db: Database, of itemId: Item.ID, _ householdId: Household.ID) throws -> [ItemEvent] {
        guard try Int.fetchOne(db, sql: "SELECT 1 FROM item WHERE id = ? AND household_id = ?", arguments: [itemId, householdId]) != nil else {
            throw InventoryError.notFound
        }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.kind, e.detail, e.at, e.cook_id, m.name AS member_name, e.from_folder_id, e.to_folder_id,
                    ff.id AS from_id, ff.name AS from_name, ff.starter AS from_starter,
                    tf.id AS to_id, tf.name AS to_name, tf.starter AS to_starter
                FROM item_event e LEFT JOIN member m ON m.id = e.member_id
                    LEFT JOIN folder ff ON ff.id = e.from_folder_id AND ff.household_id = e.household_id
                    LEFT JOIN folder tf ON tf.id = e.to_folder_id AND tf.household_id = e.household_id
                WHERE e.item_id = ? AND e.household_id = ? ORDER BY e.at DESC, e.id DESC
                """, arguments: [itemId, householdId]
        ).map { row in
            func place(_ end: String) -> FolderStep.Place? {
                (row["\(end)_id"] as Folder.ID?).map { FolderStep.Place(id: $0, name: row["\(end)_name"], starter: row["\(end)_starter"]) }
            }
            let kept = row["from_folder_id"] as Int64? != nil || row["to_folder_id"] as Int64? != nil
            return ItemEvent(
                id: row["id"], kind: row["kind"], detail: row["detail"], memberName: row["member_name"], at: try row.decode(forColumn: "at"),
                cookId: row["cook_id"],
                folders: kept ? FolderStep(from: place("from"), to: place("to")) : nil)
        }
    }

    static func record(_ db: Database, _ item: Item, _ kind: String, _ detail: String = "", by memberId: Member.ID?, at time: Timestamp) throws {
        try ItemHistory.append(db, householdId: item.householdId, itemId: item.id, memberId: memberId, kind: kind, detail: detail, at: time)
    }

    /// A move or a purchase from folder `from` to folder `to`, kept by id (named when read);
    /// `detail`: what else changed, such as a quantity "1 → 3".
    static func record(
        _ db: Database, _ item: Item, _ kind: String, from: Folder.ID, to: Folder.ID, detail: String = "", by memberId: Member.ID?, at time: Timestamp,
        cookId: Cook.ID? = nil
    ) throws {
        try ItemHistory.append(
            db, householdId: item.householdId, itemId: item.id, memberId: memberId, kind: kind, detail: detail, at: time, cookId: cookId,
            fromFolderId: from, toFolderId: to)
    }

    // MARK: - Registering and editing

    /// Saves every draft that has content, in one transaction. A draft with content but no valid
    /// name (or another problem) stops the whole batch: `ItemFormErrors` says which draft and field.
    public func register(_ drafts: [ItemInput], into folderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID, timeZone: TimeZone) throws -> [Item
        .ID]
    {
        let folder = try self.folder(folderId, in: scope)
        var values: [ItemValues] = []
        var errors: [Int: [ItemField: FieldProblem]] = [:]
        for (index, draft) in drafts.enumerated() where !draft.isBlank {
            switch ItemValidation.check(draft, for: folder.kind, timeZone: timeZone) {
            case .success(let checked): values.append(checked)
            case .failure(let problems): errors[index] = problems.fields
            }
        }
        if !errors.isEmpty { throw ItemFormErrors(errors) }
        if values.isEmpty { throw ItemFormErrors([0: [.name: .itemNameRequired]]) }
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let indexes = drafts.indices.filter { !drafts[$0].isBlank }
            let foreign = try Self.foreignPhotos(db, values.map(\.picture), householdId: scope.householdId).map { indexes[$0] }
            if !foreign.isEmpty { throw ItemFormErrors(Dictionary(uniqueKeysWithValues: foreign.map { ($0, [.picture: .pictureInvalid]) })) }
            return try values.map { value in
                var draft = Item.Draft(householdId: scope.householdId, folderId: folderId, name: value.name, createdAt: time, updatedAt: time)
                Self.apply(value, to: &draft)
                let item = try draft.insertAndFetch(db, as: Item.self)
                try Self.record(db, item, "created", folder.name, by: memberId, at: time)
                try Products.remember(db, item, at: time)
                try ShelfLife.registered(db, item, at: time)
                return item.id
            }
        }
    }

    static func apply(_ value: ItemValues, to item: inout Item.Draft) {
        item.values = value
        item.searchText = SearchText.fold(value.name, value.note)
    }

    /// Saves an edit made on a form opened at `version`. If someone saved the item since, the edit is
    /// merged with theirs against `base`, what the form was opened with (see `ItemMerge`): without a
    /// clash the merge is saved and described in the result; with one, or without a base, nothing is
    /// written and `.conflict` is thrown. Moving to a folder of the other kind drops what that kind
    /// does not have.
    @discardableResult
    public func update(
        _ id: Item.ID, with input: ItemInput, folderId: Folder.ID, version: Int, base: ItemSnapshot? = nil, in scope: HouseholdScope, by memberId: Member.ID,
        timeZone: TimeZone
    ) throws -> MergedEdit? {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            var item = try Self.item(db, id, scope.householdId)
            var target = try Self.folder(db, folderId, scope.householdId)
            // What was typed is checked first, so a mistake comes back beside its field even on a stale form.
            var values = try Self.checked(input, for: target.kind, timeZone: timeZone)
            var merged: MergedEdit?
            if item.version != version {
                guard let base else { throw InventoryError.conflict }
                let theirs = ItemSnapshot(item, timeZone: timeZone)
                let current = try Self.folder(db, item.folderId, scope.householdId)
                let merge = ItemMerge(
                    base: base, mine: ItemSnapshot(input: input, folderId: folderId), theirs: theirs,
                    folderKinds: Dictionary([(current.id, current.kind), (target.id, target.kind)], uniquingKeysWith: { first, _ in first }))
                guard !merge.hasClashes else { throw InventoryError.conflict }
                target = try Self.folder(db, merge.merged.folderId, scope.householdId)
                values = try Self.checked(merge.merged.input, for: target.kind, timeZone: timeZone)
                let latest = try ItemEvent.ID.fetchOne(db, sql: "SELECT MAX(id) FROM item_event WHERE item_id = ?", arguments: [id])
                merged = MergedEdit(merge: merge, latestEventId: latest)
            }
            if values.picture != item.picture, try !Self.foreignPhotos(db, [values.picture], householdId: scope.householdId).isEmpty {
                throw ItemFormErrors([0: [.picture: .pictureInvalid]])
            }
            let before = item
            Self.apply(values, to: &item.draft)
            Self.leaveBasket(&item.draft, for: target.kind)
            item.folderId = target.id
            item.version += 1
            item.updatedAt = time
            try item.update(db)
            if before.folderId != item.folderId {
                try Self.record(db, item, "moved", from: before.folderId, to: item.folderId, by: memberId, at: item.updatedAt)
            }
            let changed = Self.changedFields(before, item)
            if !changed.isEmpty { try Self.record(db, item, "changed", changed.joined(separator: ","), by: memberId, at: item.updatedAt) }
            try Products.remember(db, item, at: item.updatedAt)
            try ShelfLife.edited(db, item, from: before.folderId, at: time)
            return merged
        }
    }

    static func checked(_ input: ItemInput, for kind: FolderKind, timeZone: TimeZone) throws -> ItemValues {
        switch ItemValidation.check(input, for: kind, timeZone: timeZone) {
        case .success(let checked): return checked
        case .failure(let problems): throw ItemFormErrors([0: problems.fields])
        }
    }

    /// History written since `updatedAt` (exclusive), newest first: what others did after a form was opened.
    public func history(of itemId: Item.ID, since updatedAt: Timestamp, in scope: HouseholdScope) throws -> [ItemEvent] {
        try history(of: itemId, in: scope).filter { $0.at > updatedAt }
    }

    /// Positions of pictures that name a photo not of this household: a form may only point at
    /// the household's own photos (keys travel in hidden fields).
    static func foreignPhotos(_ db: Database, _ pictures: [Picture?], householdId: Household.ID) throws -> [Int] {
        try pictures.indices.filter { index in
            guard let key = pictures[index]?.photoKey else { return false }
            return try !PhotoStore.belongs(db, key: key, householdId: householdId)
        }
    }

    /// The history's names of the fields a save changed (see `ItemField.differs`).
    static func changedFields(_ a: Item, _ b: Item) -> [String] {
        ItemField.changed(from: a, to: b).map(\.rawValue)
    }
}

/// Where an item is now (see `Items.whereabouts`).
public enum ItemWhereabouts: Sendable, Equatable {
    case inFolder(Folder.ID, name: String)
    /// In the trash, put there by the member named (nil: unknown).
    case inTrash(name: String, by: String?)
    /// Deleted for good.
    case gone
}
