import Foundation
import HTTPServer
import Inventory

/// Serves the household's photos: `/photos/<key>/512` and `/photos/<key>/128`. Another household's
/// key answers 404 like an unknown one. Browsers keep a private copy but ask again every time
/// (a 304 from the ETag costs little): a copy kept `immutable` would still show on a shared
/// device after its member signed out.
struct PhotoController {
    let store: PhotoStore

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.photo("{key}", "{size}"), .signedIn, use: photo)
    }

    /// One size of one photo of the member's household, or 304 when the browser has it.
    func photo(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        guard let key = context.request.pathParameters["key"], let size = Int(context.request.pathParameters["size"] ?? "").flatMap(PhotoSize.init)
        else { throw InventoryError.notFound }
        let url = try store.file(key: key, size: size, in: member.household)
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw InventoryError.notFound }
        let response = StaticFiles.fileResponse(
            path: url.path, size: info.st_size, contentType: MediaType.forPath(url.path), etag: "\"\(key)-\(size.rawValue)\"",
            modified: Int(info.st_mtim.tv_sec), cacheControl: "private, no-cache", request: context.request)
        guard let response else { throw InventoryError.notFound }
        return response
    }
}
