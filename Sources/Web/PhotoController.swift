import Foundation
import HTTPServer
import Inventory

/// Serves the household's photos: `/photos/<key>/512` and `/photos/<key>/128`. Another household's
/// key answers 404 like an unknown one. The URL changes when an item's photo does, so browsers
/// may keep a copy for a long time, privately.
struct PhotoController {
    let store: PhotoStore

    func register(in router: inout Router<Endpoint>) {
        router.get("/photos/{key}/{size}", .signedIn) { context in
            let member = try context.signedIn
            guard let key = context.request.pathParameters["key"], let size = Int(context.request.pathParameters["size"] ?? "").flatMap(PhotoSize.init)
            else { throw InventoryError.notFound }
            let url = try store.file(key: key, size: size, householdId: member.householdId)
            var info = stat()
            guard stat(url.path, &info) == 0 else { throw InventoryError.notFound }
            let response = StaticFiles.fileResponse(
                path: url.path, size: info.st_size, contentType: MediaType.forPath(url.path), etag: "\"\(key)-\(size.rawValue)\"",
                modified: Int(info.st_mtim.tv_sec), cacheControl: "private, max-age=31536000, immutable", request: context.request)
            guard let response else { throw InventoryError.notFound }
            return response
        }
    }
}
