import Foundation
import HTTPServer
import Inventory

/// What a phone keeps for reading offline (over HTTPS, where browsers allow a service worker):
/// the worker's script, at the root so that its scope is the whole site, and the index of the
/// pages it keeps without their being opened (the household's shopping lists), for the member
/// signed in.
struct OfflineController {
    let staticFiles: StaticFiles
    let items: Items
    let renderer: Renderer

    /// The worker's script below `Public/`.
    static let workerFile = "sw.js"

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Offline.worker, .asset, use: worker)
        router.get(Route.Offline.lists, .signedIn, use: lists)
    }

    /// `Public/sw.js`, asked again on every registration check (`no-cache`: its ETag makes that a
    /// 304), so a new version of the worker is taken up at the next page, not an hour later.
    func worker(_ context: RequestContext) throws -> Response {
        guard var response = staticFiles.response(for: Self.workerFile, request: context.request) else {
            return renderer.errorResponse(404, locale: context.locale)
        }
        response.setHeader("Cache-Control", "no-cache")
        return response
    }

    /// The index the worker reads: whose copies it holds (another member's sign-in on the same
    /// browser makes it drop them) and the address of every shopping list of that member's household.
    func lists(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let shopping = try items.folders(in: member.household, kind: .shopping)
        let index = OfflineIndex(member: member.memberId.rawValue, lists: shopping.map { Route.folder($0.id).path })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(try encoder.encode(index))))
    }
}

/// `/offline/lists.json`.
struct OfflineIndex: Codable, Equatable {
    /// The signed-in member's id.
    let member: Int64
    /// The household's shopping lists, as paths.
    let lists: [String]
}
