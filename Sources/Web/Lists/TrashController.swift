import HTTPServer
import Inventory

/// The trash: restore or delete for good; items leave it by themselves after 30 days.
struct TrashController {
    let items: Items
    let renderer: Renderer
    /// The restored row, for Undo on a list row sent by script.
    let rows: RowFragment
    /// Trashed recipes, in a section of their own.
    var recipes: RecipeTrash? = nil

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.trash, .signedIn, use: show)
        router.post(Route.trashRestore, .writer, use: restore)
        router.post(Route.trashPurge, .writer, use: purge)
    }

    /// The trashed items (and recipes); items past their 30 days leave it as the page opens.
    func show(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try items.purgeExpiredTrash(in: member.household)
        let t = context.locale
        let rows = try items.trashEntries(in: member.household).map {
            TrashPage.Row(
                id: $0.item.id, name: $0.item.name, folder: folderName($0, t),
                deleted: $0.item.deletedAt.map { DisplayFormat.dateTime($0, timeZone: member.timeZone, locale: t) } ?? "")
        }
        return renderer.response(
            TrashPage(
                rows: rows, notice: context.request.query["restored"].map { t.count(.noticeRestored, Int($0) ?? 0) },
                recipes: try recipes?.section(context)), context)
    }

    /// The ticked items back where they were, or the one a row's Undo names (`undo`).
    func restore(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        // Undo beside a row restores that one item (`undo`), whatever else the list has ticked.
        let undone = Item.ID(context.field("undo"))
        let ids = undone.map { [$0] } ?? Self.ids(context)
        try items.restore(ids, in: member.household, by: member.memberId)
        guard let undone else { return .redirect(to: context.returnPath(fallback: Route.trash + "?restored=\(ids.count)")) }
        if RowFragment.wanted(context) {
            return try rows.response(context, itemId: undone) { _ in context.locale.count(.noticeRestored, 1) }
        }
        return ListQuery.back(context, at: undone, ["restored": "1"])
    }

    /// The ticked items deleted for good.
    func purge(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try items.purge(Self.ids(context), in: member.household)
        return .redirect(to: Route.trash)
    }

    /// Ids from repeated `ids` fields or one comma-separated value (the undo button).
    static func ids(_ context: RequestContext) -> [Item.ID] {
        context.request.form.all("ids").flatMap { $0.split(separator: ",") }.compactMap { Item.ID(String($0)) }
    }
}

struct TrashPage: CompiledPage {
    struct Row: Sendable {
        let id: Item.ID
        let name: String
        let folder: String
        let deleted: String
    }

    let rows: [Row]
    let notice: String?
    var recipes: RecipeTrashSection? = nil

    func title(_ t: Catalog) -> String { t[.trashHeading] }

    var hasRows: Bool { !rows.isEmpty }
    var isEmpty: Bool { rows.isEmpty && recipes == nil }
}
