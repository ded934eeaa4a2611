import HTTPServer
import Inventory

/// What the last action on a list's rows did, in words: on every page that shows rows (lists,
/// use soon, the folders page) and in the row a script swaps in place.
enum Notices {
    /// What the last action on a list's rows did, read from the address it came back to
    /// (see `ListQuery.adding`), and the ids an Undo restores.
    static func notice(_ query: Parameters, folders: [Folder], t: Catalog) -> (notice: String?, undoIds: String?) {
        if let deleted = query["deleted"], !deleted.isEmpty {
            return (t.count(.noticeDeleted, deleted.split(separator: ",").count), deleted)
        } else if let added = query["added"] {
            return (t.count(.noticeAdded, Int(added) ?? 0), nil)
        } else if let imported = query["imported"].flatMap(Int.init), let updated = query["updated"].flatMap(Int.init) {
            return (t.format(.noticeImported, ["new": String(imported), "updated": String(updated)]), nil)
        } else if let moved = query["moved"] {
            return (t.count(.noticeMoved, Int(moved) ?? 0), nil)
        } else if let restored = query["restored"] {
            return (t.count(.noticeRestored, Int(restored) ?? 0), nil)
        } else if let bought = query["bought"] {
            return (t.count(.noticeBought, Int(bought) ?? 0), nil)
        } else if let copied = query["copied"].flatMap(Folder.ID.init), let list = folders.first(where: { $0.id == copied }) {
            // Several from the bulk bar, or one row's "Buy again".
            if let copies = query["copies"].flatMap(Int.init) { return (t.count(.noticeCopiedMany, copies, ["list": displayName(list, t)]), nil) }
            return (t.format(.noticeCopied, ["list": displayName(list, t)]), nil)
        } else if query["gone"] != nil {
            return (t[.noticeGone], nil)
        } else if query["notice"] == "none_selected" {
            return (t[.noticeNoneSelected], nil)
        } else if query["warn"] == "remind_after_due" {
            return (t[.warnRemindAfterDue], nil)
        }
        return (nil, nil)
    }

    /// The notice of a page of rows, where it shows: next to its row when the address names a row
    /// on the page (a quick action came back), at the top otherwise; the Undo's ids either way.
    static func placed(_ query: Parameters, rows: [ItemRowView], folders: [Folder], t: Catalog) -> (top: String?, undoIds: String?, row: RowNotice?) {
        let (notice, undoIds) = Self.notice(query, folders: folders, t: t)
        let row = rowNotice(query, rows: rows, generic: (notice, undoIds), t: t)
        return (row == nil ? notice : nil, undoIds, row)
    }

    /// The notice for the row named by `at` in the address, when that row is on the page: the
    /// generic notice (deleted, copied, restored) or one about the row itself.
    private static func rowNotice(_ query: Parameters, rows: [ItemRowView], generic: (notice: String?, undoIds: String?), t: Catalog) -> RowNotice? {
        guard let at = query["at"].flatMap(Item.ID.init), let row = rows.first(where: { $0.id == at }) else { return nil }
        if query["changed"] != nil { return RowNotice(at: at, text: quantityNotice(row, t: t)) }
        if query["opened"] != nil { return RowNotice(at: at, text: t.format(.noticeOpened, ["name": row.name])) }
        if query["urgent"] != nil { return RowNotice(at: at, text: urgentNotice(row, t: t)) }
        if query["basket"] != nil { return RowNotice(at: at, text: basketNotice(row, t: t)) }
        if let listed = query["listed"] { return RowNotice(at: at, text: listedNotice(row, joined: listed == "joined", t: t)) }
        return generic.notice.map { RowNotice(at: at, text: $0, undoIds: generic.undoIds) }
    }

    static func quantityNotice(_ row: ItemRowView, t: Catalog) -> String {
        t.format(.noticeQuantity, ["name": row.name, "quantity": row.amount])
    }

    static func basketNotice(_ row: ItemRowView, t: Catalog) -> String {
        t.format(row.inBasket ? .noticeInBasket : .noticeOutOfBasket, ["name": row.name])
    }

    /// "Add to the list": a new row, or the row of that name that was there (with its quantity now).
    static func listedNotice(_ row: ItemRowView, joined: Bool, t: Catalog) -> String {
        joined ? t.format(.noticeListJoined, ["name": row.name, "quantity": row.amount]) : t.format(.noticeListAdded, ["name": row.name])
    }

    static func urgentNotice(_ row: ItemRowView, t: Catalog) -> String {
        t.format(row.urgent ? .noticeUrgent : .noticeNotUrgent, ["name": row.name])
    }
}
