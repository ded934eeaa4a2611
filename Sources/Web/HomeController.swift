import GRDB
import HTTPServer
import Inventory
import Mustache

/// The folders page: the household's stock lists and shopping lists.
struct HomeController {
    let database: AppDatabase
    let renderer: Renderer

    func register(in router: inout Router<Endpoint>) {
        router.get("/", .signedIn) { context in
            let member = try context.signedIn
            let folders = try Folders(database: database).overview(householdId: member.householdId)
            let t = context.locale
            func rows(_ kind: FolderKind) -> [HomePage.Row] {
                folders.filter { $0.kind == kind }.map {
                    HomePage.Row(id: $0.id, name: $0.name, icon: $0.icon, count: t.format("item_count", ["count": "\($0.itemCount)"]))
                }
            }
            return renderer.response(HomePage(household: member.householdName, stock: rows(.stock), shopping: rows(.shopping)), context)
        }
    }
}

struct HomePage: PageView {
    static let template = "home"

    struct Row: MustacheParent, Sendable {
        let id: Int64
        let name: String
        let icon: String
        let count: String
        func child(named key: String) -> Any? {
            switch key {
            case "id": return id
            case "name": return name
            case "icon": return icon
            case "count": return count
            default: return nil
            }
        }
    }

    let household: String
    let stock: [Row]
    let shopping: [Row]

    func title(_ t: Catalog) -> String { household }

    func child(named name: String) -> Any? {
        switch name {
        case "household": return household
        case "stock": return stock
        case "shopping": return shopping
        default: return nil
        }
    }
}
