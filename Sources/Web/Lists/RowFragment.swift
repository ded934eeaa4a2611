import HTTPServer
import Inventory

/// The answer to a quick action sent by script (`fragment=1`): the item's row exactly as the list
/// page renders it (`ItemRowsView`, the compiled `partials/item-rows`: one code path), with the
/// notice of what was done in front of it, so the script swaps the row in place instead of
/// reloading the list.
struct RowFragment {
    let items: Items
    let settings: HouseholdSettings
    let clock: WallClock
    /// The row's picture by its versioned address, as on the list page.
    let urls: StaticURLs

    /// Whether the request asks for a fragment rather than a redirect back to the list.
    static func wanted(_ context: RequestContext) -> Bool { context.field("fragment") == "1" }

    /// The row of `itemId` with the notice `notice(row)` above it.
    func response(_ context: RequestContext, itemId: Item.ID, notice: (ItemRowView) -> String?) throws -> Response {
        try response(context, itemId: itemId) { (row: ItemRowView) in notice(row).map { RowNotice(at: itemId, text: $0) } }
    }

    /// The row of `itemId` with the notice `notice(row)` (text and buttons) above it.
    func response(_ context: RequestContext, itemId: Item.ID, notice: (ItemRowView) -> RowNotice?) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let item = try items.item(itemId, in: member.household)
        let folder = try items.folder(item.folderId, in: member.household)
        let window = DueWindow(household: try settings.household(member.household), now: clock.now())
        // The page the row sits on: a list (with checkboxes) or a page that names each row's folder.
        let row = ItemRowView(item, window: window, t: t, urls: urls, folder: context.field("with_folder") == "1" ? displayName(folder, t) : nil)
        var shared = try rowContext(context, isStock: folder.kind == .stock)
        let text = notice(row)
        let here = context.returnPath(fallback: Route.folder(folder.id).path)
        // Someone moved it to another list meanwhile: it leaves this one, and the notice says where.
        if let shown = Self.listFolder(here), shown != folder.id {
            return try self.notice(context, RowNotice(at: nil, text: t.format(.noticeMovedTo, ["name": item.name, "folder": displayName(folder, t)])))
        }
        // The use-soon page's rows link to the recipes that use them.
        shared.recipesLink = here == "/soon" || here.hasPrefix("/soon?")
        return Self.fragment(ItemRowsView([row], shared: shared, here: here, notice: text, t: shared.t).bytes)
    }

    /// `action` on a row, answered in place when its item is no longer there (someone deleted it
    /// meanwhile): the notice says who, with Undo while it is in the trash; without script, the
    /// list again with "Deleted" and Undo at the top. Never a bare "not found" page.
    func inPlace(_ action: @escaping Handler) -> Handler {
        { context in
            do {
                return try action(context)
            } catch InventoryError.notFound {
                return try whereabouts(context, of: try context.id())
            }
        }
    }

    /// The answer for an action on item `id` that was not found where the action expected it:
    /// deleted (by whom, with Undo), deleted for good, or moved to another folder than the page's.
    func whereabouts(_ context: RequestContext, of id: Item.ID) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        switch try items.whereabouts(of: id, in: member.household) {
        case .inFolder(let folderId, let name):
            // The action does not fit where the item is now (a basket tap from a phone that was
            // offline, on something bought meanwhile): the notice says where it went.
            let here = context.returnPath(fallback: "")
            guard Self.wanted(context), let shown = Self.listFolder(here), shown != folderId else { throw InventoryError.notFound }
            let folder = try items.folder(folderId, in: member.household)
            return try notice(context, RowNotice(at: nil, text: t.format(.noticeMovedTo, ["name": name, "folder": displayName(folder, t)])))
        case .inTrash(let name, let by):
            guard Self.wanted(context) else { return ListQuery.back(context, at: nil, ["deleted": "\(id)"]) }
            let text = by.map { t.format(.noticeDeletedBy, ["name": name, "member": $0]) } ?? t.format(.noticeDeletedNamed, ["name": name])
            // What a phone sent after being offline, on an item someone deleted meanwhile: Restore.
            if IntentId(context.field("intent")) != nil {
                let restore = NoticeButton(label: t[.trashRestore], path: Route.trashRestore, name: "undo", value: "\(id)")
                return try notice(context, RowNotice(at: nil, text: text, buttons: [restore]))
            }
            return try notice(context, RowNotice(at: nil, text: text, undoIds: "\(id)"))
        case .gone:
            guard Self.wanted(context) else { return ListQuery.back(context, at: nil, ["gone": "1"]) }
            return try notice(context, RowNotice(at: nil, text: t[.noticeGone]))
        }
    }

    /// The folder whose list `path` is (`/folders/3?q=milk`), if it is one.
    static func listFolder(_ path: String) -> Folder.ID? {
        guard path.hasPrefix("/folders/") else { return nil }
        return Folder.ID(String(path.dropFirst("/folders/".count).prefix { $0.isNumber }))
    }

    /// Only a notice: the row is gone (to the trash), with Undo.
    func notice(_ context: RequestContext, _ notice: RowNotice) throws -> Response {
        let shared = try rowContext(context, isStock: true)
        var view = ItemRowsView([], shared: shared, here: "", t: shared.t)
        view.leadNotice = notice
        return Self.fragment(view.bytes)
    }

    private func rowContext(_ context: RequestContext, isStock: Bool) throws -> RowContext {
        let member = try context.signedIn
        let shopping = try items.folders(in: member.household, kind: .shopping)
        return RowContext(
            canWrite: member.role.canWrite, isStock: isStock, hasShoppingLists: !shopping.isEmpty,
            selectable: context.field("selectable") == "1", t: context.locale)
    }

    private static func fragment(_ body: [UInt8]) -> Response {
        Response(
            status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("X-Zaiko-Fragment", "row"), ("Cache-Control", "no-store")],
            body: .bytes(body))
    }
}
