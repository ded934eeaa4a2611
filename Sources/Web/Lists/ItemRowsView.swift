import Inventory
import TemplateRuntime

/// The rows of a stock or shopping list (`Templates/partials/item-rows.mustache`, compiled):
/// on the list page, on the pages that gather rows of several folders, and in the one row a
/// script asks for after a quick action (`RowFragment`).
struct ItemRowsView {
    struct Row {
        let item: ItemRowView
        /// What the last action did, shown right above this row.
        let notice: RowNotice?
        let canMarkOpened: Bool
        /// Shopping rows: "Mark urgent" or "Not urgent" in the menu, and the basket tap.
        let canMarkUrgent: Bool
        /// After a delete the list comes back to this row (the next one, else the previous).
        let neighbour: Item.ID?

        var id: Item.ID { item.id }
        var name: String { item.name }
        var dueState: String { item.dueState }
        var urgent: Bool { item.urgent }
        /// What the menu's urgency button sends: the opposite of now.
        var urgentValue: String { item.urgent ? "0" : "1" }
        var inBasket: Bool { item.inBasket }
        /// Shopping rows of a member who may write: the basket tap (the whole row, with script).
        let canBasket: Bool
        /// What the basket tap sends: the opposite of now.
        var basketValue: String { item.inBasket ? "0" : "1" }
        var thumbnail: String { item.thumbnail }
        var hasPicture: Bool { item.hasPicture }
        var dueWord: String? { item.dueWord }
        var due: String? { item.due }
        var dueIn: String? { item.dueIn }
        var folder: String? { item.folder }
        var kind: String { item.kind }
        var status: String? { item.status }
        var statusKey: String? { item.statusKey }
        var before: String { item.amountParts.before }
        var number: String { item.amountParts.number }
        var after: String { item.amountParts.after }
        var step: String { item.step }
        var refill: Bool { item.refill }
        /// "Recipes with this" (rows of the use-soon page).
        var recipesHref: String { RecipesQuery.forIngredient(item.name) }
    }

    let t: TemplateLabels
    let rows: [Row]
    /// A notice alone, for a row that is gone (deleted by a script's request).
    var leadNotice: RowNotice? = nil
    let canWrite: Bool
    /// Rows carry a checkbox for the list's bulk actions.
    let checkable: Bool
    let canBuyAgain: Bool
    /// Rows link "Recipes with this" (the use-soon page).
    let recipesLink: Bool
    /// The page the rows are on, where their actions come back to.
    let back: String

    init(_ rows: [ItemRowView], shared: RowContext, here: String, notice: RowNotice? = nil, t: TemplateLabels) {
        self.t = t
        self.rows = rows.indices.map { index in
            let row = rows[index]
            let neighbour = index + 1 < rows.count ? rows[index + 1].id : index > 0 ? rows[index - 1].id : nil
            return Row(
                item: row, notice: notice?.at == row.id ? notice : nil, canMarkOpened: shared.isStock && !row.isOpened,
                canMarkUrgent: !shared.isStock, neighbour: neighbour, canBasket: !shared.isStock && shared.canWrite)
        }
        canWrite = shared.canWrite
        checkable = shared.canWrite && shared.selectable
        canBuyAgain = shared.isStock && shared.hasShoppingLists
        recipesLink = shared.recipesLink
        back = here
    }

    /// The rows alone, without a page around them: the body of a `RowFragment`.
    var bytes: [UInt8] {
        var writer = HTMLWriter(capacity: 1024 + rows.count * 1536)
        render(into: &writer)
        return writer.bytes
    }
}

/// What the last quick action on a row did, shown right above the row it concerns (`at`) so the
/// person sees it where they tapped; `undoIds` offers Undo after a delete, `buttons` other quick
/// actions (Undo of an action a phone sent after being offline, the choice after a clash).
struct RowNotice: Sendable {
    let at: Item.ID?
    let text: String
    var undoIds: String? = nil
    var buttons: [NoticeButton] = []
}

/// A quick action offered in a notice: a button that posts the list's form to `path` with
/// `name=value`, as a row's own buttons do.
struct NoticeButton: Sendable {
    let label: String
    let path: String
    let name: String
    let value: String
}
