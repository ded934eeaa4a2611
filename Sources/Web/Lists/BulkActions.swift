import Foundation
import HTTPServer
import Inventory

/// What the bulk bar's buttons do with the ticked rows, on a list (`/folders/{id}/bulk`) and on
/// Use soon (`/soon/bulk`). Each is one transaction; each answers by going back with a notice.
struct BulkActions {
    let items: Items

    /// `shoppingList` is the list the rows are on when it is a shopping list: only there are
    /// items "bought" (which asks for quantities and dates on the Bought page first).
    func answer(_ context: RequestContext, back: String, shoppingList: Int64?) throws -> Response {
        let member = try context.signedIn
        let ids = context.request.form.all("ids").compactMap(Int64.init)
        guard !ids.isEmpty else { return .redirect(to: ListQuery.adding(["notice": "none_selected"], to: back)) }
        switch context.field("action") {
        case "delete":
            try items.trash(ids, in: member.household, by: member.memberId)
            return .redirect(to: ListQuery.adding(["deleted": ids.map(String.init).joined(separator: ",")], to: back))
        case "move":
            guard let target = Int64(context.field("target")) else { return .redirect(to: back) }
            try items.move(ids, to: target, in: member.household, by: member.memberId)
            return .redirect(to: ListQuery.adding(["moved": "\(ids.count)"], to: back))
        case "buy_again":
            guard let target = Int64(context.field("shopping")) else { return .redirect(to: back) }
            try items.buyAgain(ids, onto: target, in: member.household, by: member.memberId)
            return .redirect(to: ListQuery.adding(["copies": "\(ids.count)", "copied": "\(target)"], to: back))
        case "bought":
            guard let list = shoppingList else { return .redirect(to: back) }
            return .redirect(to: BoughtController.address(list: list, ids: ids, stock: Int64(context.field("stock")), back: back))
        default:
            return .redirect(to: back)
        }
    }
}
