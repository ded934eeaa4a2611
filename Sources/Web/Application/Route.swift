/// The site's addresses, each defined once: a route is registered at a pattern
/// (`Route.Item.pattern.edit` is `/items/{id}/edit`) and links to it are made by the same code
/// (`Route.item(id).edit` is `/items/42/edit`).
enum Route {
    /// The folders page.
    static let home = "/"
    /// The batch editor.
    static let newItem = "/items/new"
    /// Where a new folder is made.
    static let folders = "/folders"
    /// The folders' settings: names, order, new folders.
    static let folderSettings = "/folders/edit"

    static func item(_ id: Int64) -> Item { Item(path: "/items/\(id)") }
    static func folder(_ id: Int64) -> Folder { Folder(path: "/folders/\(id)") }

    /// One item: its page (`path`, where its editor saves) and its actions.
    struct Item: Sendable {
        /// The routes' pattern, the item's id a parameter.
        static let pattern = Item(path: "/items/{id}")

        let path: String
        var edit: String { path + "/edit" }
        var photo: String { path + "/photo" }
        var quantity: String { path + "/quantity" }
        var opened: String { path + "/opened" }
        var urgent: String { path + "/urgent" }
        var delete: String { path + "/delete" }
        var buyAgain: String { path + "/buy-again" }
        var empty: String { path + "/empty" }
    }

    /// One folder: its list (`path`, where its settings save) and its actions.
    struct Folder: Sendable {
        /// The routes' pattern, the folder's id a parameter.
        static let pattern = Folder(path: "/folders/{id}")

        let path: String
        var edit: String { path + "/edit" }
        var move: String { path + "/move" }
        var delete: String { path + "/delete" }
        var bulk: String { path + "/bulk" }
        var bought: String { path + "/bought" }
    }
}
