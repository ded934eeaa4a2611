import Exchange
import Foundation
import HTTPServer
import Inventory

/// `GET /settings/export`: the owner downloads the household as one ZIP (see `HouseholdExport`).
/// The ZIP is written to a temporary file that is unlinked once opened, and sent from its
/// descriptor: it is never held in memory, and nothing is left on disk after the answer.
struct ExportController {
    let export: HouseholdExport
    let settings: HouseholdSettings
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Settings.export, .owner, use: download)
    }

    /// The household's ZIP, named after the household and today.
    func download(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let household = try settings.household(member.household)
        let descriptor = try writeUnlinked(in: member.household)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        let names = HouseholdExport.fileNames(household: household.name, on: clock.now(), timeZone: household.timeZone)
        return Response(
            status: 200,
            headers: [
                ("Content-Type", "application/zip"),
                ("Content-Disposition", Self.attachment(names)),
                ("Cache-Control", "no-store"),
            ],
            body: .file(descriptor: descriptor, size: UInt64(info.st_size)))
    }

    /// The export written to a temporary file, opened, and unlinked: the descriptor is all that is left of it.
    private func writeUnlinked(in scope: HouseholdScope) throws -> Int32 {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-export-\(Crypto.token(byteCount: 12)).zip")
        try export.write(in: scope, to: file)
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        unlink(file.path)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        return descriptor
    }

    /// `attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded>` (RFC 6266, RFC 8187).
    static func attachment(_ names: (unicode: String, ascii: String)) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let encoded = names.unicode.addingPercentEncoding(withAllowedCharacters: allowed) ?? names.ascii
        return "attachment; filename=\"\(names.ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
