import Backups
import Foundation
import HTTPServer
import Inventory

/// Settings' backup actions for owners: `POST /settings/backups/now` asks the server's backup
/// thread for a backup and answers at once (the page then says it is being made), and
/// `GET /settings/backups/latest` downloads the newest archive, only when it holds nothing but this
/// owner's household (an archive holds every household on the server).
struct BackupController {
    let control: (any BackupControl)?
    let status: BackupStatusStore

    func register(in router: inout Router<Endpoint>) {
        router.post(Route.Settings.backUpNow, .owner, use: backUpNow)
        router.get(Route.Settings.latestBackup, .owner, use: downloadLatest)
    }

    /// Asks for a backup and goes back to say whether it started.
    func backUpNow(_ context: RequestContext) throws -> Response {
        _ = try context.signedIn
        guard let control else { throw InventoryError.notFound }
        return .redirect(to: Route.Settings.path + "?backup=\(control.backUpNow() ? "started" : "busy")#backups")
    }

    /// The newest archive, sent from its open descriptor.
    func downloadLatest(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        guard let control, try status.holdsOnly(in: member.household), let archive = control.latestArchive() else {
            throw InventoryError.notFound
        }
        let descriptor = open(archive.path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            if descriptor >= 0 { close(descriptor) }
            throw InventoryError.notFound
        }
        let name = archive.lastPathComponent
        return Response(
            status: 200,
            headers: [
                ("Content-Type", "application/zip"),
                ("Content-Disposition", ExportController.attachment((name, name))),
                ("Cache-Control", "no-store"),
            ],
            body: .file(descriptor: descriptor, size: UInt64(info.st_size)))
    }
}
