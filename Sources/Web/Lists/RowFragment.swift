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
        let member = try context.signedIn
        let t = context.locale
        let item = try items.item(itemId, in: member.household)
        let folder = try items.folder(item.folderId, in: member.household)
        let window = DueWindow(household: try settings.household(member.household), now: clock.now())
        // The page the row sits on: a list (with checkboxes) or a page that names each row's folder.
        let row = ItemRowView(item, window: window, t: t, urls: urls, folder: context.field("with_folder") == "1" ? displayName(folder, t) : nil)
        var shared = try rowContext(context, isStock: folder.kind == .stock)
        let text = notice(row).map { RowNotice(at: itemId, text: $0) }
        let here = context.returnPath(fallback: Route.folder(folder.id).path)
        // The use-soon page's rows link to the recipes that use them.
        shared.recipesLink = here == "/soon" || here.hasPrefix("/soon?")
        return Self.fragment(ItemRowsView([row], shared: shared, here: here, notice: text, t: shared.t).bytes)
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
