import Foundation
import HTTPServer
import Inventory

/// The addresses a list's actions go back to: the list's own address with the values that say
/// what was done (read back by `Notices`), at the row acted on.
enum ListQuery {
    /// Back to the page a row action came from, at the row `id` (`#item-N`), where the notice
    /// named by `values` is shown above it (see `Notices.rowNotice`).
    static func back(_ context: RequestContext, at id: Item.ID?, _ values: [String: String]) -> Response {
        var values = values
        if let id { values["at"] = "\(id)" }
        let path = context.returnPath(fallback: "/").split(separator: "#", maxSplits: 1).first.map(String.init) ?? "/"
        return .redirect(to: adding(values, to: path) + (id.map { "#item-\($0)" } ?? ""))
    }

    static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "/"
    }

    /// `path` with query values replaced or added.
    static func adding(_ values: [String: String], to path: String) -> String {
        var components = URLComponents(string: path) ?? URLComponents()
        var query = (components.queryItems ?? []).filter {
            values[$0.name] == nil
                && ![
                    "deleted", "copied", "copies", "moved", "bought", "notice", "added", "at", "changed", "opened", "urgent", "restored", "imported", "updated",
                ]
                .contains($0.name)
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { query.append(URLQueryItem(name: name, value: value)) }
        components.queryItems = query.isEmpty ? nil : query
        // URLComponents leaves "+" as is, which a query reads back as a space ("milk+" → "milk ").
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? path
    }
}
