import HTTPServer
import Testing

@testable import Web

@Suite("Links and routes from one definition")
struct RouteTests {
    /// Each link made for one item or folder reaches the route registered at the same definition.
    @Test func everyLinkReachesTheRouteRegisteredForIt() async throws {
        let app = try await makeApp()
        let item = Route.item(42)
        let folder = Route.folder(7)
        let links: [(method: String, link: String, pattern: String)] = [
            ("GET", item.path, Route.Item.pattern.path), ("POST", item.path, Route.Item.pattern.path),
            ("GET", item.edit, Route.Item.pattern.edit), ("POST", item.photo, Route.Item.pattern.photo),
            ("POST", item.quantity, Route.Item.pattern.quantity), ("POST", item.opened, Route.Item.pattern.opened),
            ("POST", item.urgent, Route.Item.pattern.urgent), ("POST", item.delete, Route.Item.pattern.delete),
            ("POST", item.buyAgain, Route.Item.pattern.buyAgain), ("GET", item.empty, Route.Item.pattern.empty),
            ("GET", Route.newItem, Route.newItem), ("POST", Route.newItem, Route.newItem),
            ("GET", folder.path, Route.Folder.pattern.path), ("POST", folder.path, Route.Folder.pattern.path),
            ("GET", folder.edit, Route.Folder.pattern.edit), ("POST", folder.move, Route.Folder.pattern.move),
            ("GET", folder.delete, Route.Folder.pattern.delete), ("POST", folder.delete, Route.Folder.pattern.delete),
            ("POST", folder.bulk, Route.Folder.pattern.bulk), ("GET", folder.bought, Route.Folder.pattern.bought),
            ("POST", folder.bought, Route.Folder.pattern.bought), ("GET", Route.folderSettings, Route.folderSettings),
            ("POST", Route.folders, Route.folders),
        ]
        for (method, link, pattern) in links {
            let (match, resolved) = app.router.resolve(method: method, path: link)
            guard case .found = match else {
                Issue.record("\(method) \(link) reaches no route")
                continue
            }
            #expect(resolved == pattern, "\(method) \(link)")
        }
        #expect(item.edit == "/items/42/edit")
        #expect(Route.Item.pattern.buyAgain == "/items/{id}/buy-again")
        #expect(folder.bought == "/folders/7/bought")
    }
}
