import Exchange
import Foundation
import HTTPServer
import Inventory

/// Importing items from a CSV file: choose the file and a folder, see what it would do (and every
/// problem, by line and column), then confirm. Nothing is written before the confirmation, and
/// then everything in one transaction.
struct CSVImportController {
    let items: Items
    let renderer: Renderer
    let pending: PendingImports

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Import.path, .writer, use: form)
        router.post(Route.Import.path, .writer, uploads: true, use: preview)
        router.post(Route.Import.confirm, .writer, use: confirm)
    }

    /// The form: a file and the folder its lines go to (`?folder=` chosen).
    func form(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folders = try items.folders(in: member.household)
        let chosen = context.request.query["folder"].flatMap(Int64.init)
        return renderer.response(ImportPage(context.locale, folders: folders, chosen: chosen), context)
    }

    /// What the file would do, line by line, or what is wrong with it.
    func preview(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let folders = try items.folders(in: member.household)
        let folderId = try context.form(ImportForm.self).folder.flatMap { id in folders.first { $0.id == id }?.id }
        var page = ImportPage(t, folders: folders, chosen: folderId)
        guard let folderId else {
            page.folderError = t[.importFolderInvalid]
            return renderer.response(page, context, status: 422)
        }
        let file = context.request.files.first { $0.fieldName == "file" && !($0.size == 0 && $0.clientFileName.isEmpty) }
        guard let file else {
            page.fileError = t[.importFileMissing]
            return renderer.response(page, context, status: 422)
        }
        if let code = file.writeError {
            // The server's own disk could not take the upload (full, read-only).
            let storage = StorageFailure(errno: code)
            page.fileError = t[storage.text]
            return renderer.response(page, context, status: storage.status)
        }
        guard file.size <= ItemsCSVReader.maxBytes else {
            page.fileError = Self.message(.tooLarge, t)
            return renderer.response(page, context, status: 422)
        }
        let data = try Data(contentsOf: file.temporaryURL)
        return try answer(data, folderId: folderId, page: page, context, member)
    }

    /// The previewed file imported, in one transaction.
    func confirm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let token = try context.form(ImportConfirmForm.self).token
        guard let upload = pending.take(token, for: member) else {
            var page = ImportPage(t, folders: try items.folders(in: member.household), chosen: nil)
            page.fileError = t[.importExpired]
            return renderer.response(page, context, status: 422)
        }
        let timeZone = TimeZone(identifier: member.timeZone) ?? .gmt
        guard case .success(let rows) = ItemsCSVReader.read(upload.data, vocabulary: vocabulary, timeZone: timeZone) else { throw InventoryError.notFound }
        let plan = try items.runImport(
            rows, defaultFolderId: upload.folderId, folderIds: try folderIds(member), in: member.household, by: member.memberId,
            timeZone: timeZone)
        guard plan.problems.isEmpty else {
            // The household changed since the preview (an item deleted, a folder renamed): show what is wrong now.
            let page = ImportPage(t, folders: try items.folders(in: member.household), chosen: upload.folderId)
            return try answer(upload.data, folderId: upload.folderId, page: page, context, member)
        }
        // The folder chosen on the form if lines went there, else the one most lines went to.
        let folder = plan.rows.contains { $0.folderId == upload.folderId } ? upload.folderId : plan.mainFolderId ?? upload.folderId
        return .redirect(to: Route.folder(folder).path + "?imported=\(plan.newCount)&updated=\(plan.updatedCount)")
    }

    /// The preview of `data`, or the form with what is wrong with the file.
    func answer(_ data: Data, folderId: Int64, page: ImportPage, _ context: RequestContext, _ member: SignedIn) throws -> Response {
        let t = context.locale
        var page = page
        let timeZone = TimeZone(identifier: member.timeZone) ?? .gmt
        let rows: [ImportRow]
        switch ItemsCSVReader.read(data, vocabulary: vocabulary, timeZone: timeZone) {
        case .failure(let problem):
            page.fileError = Self.message(problem, t)
            return renderer.response(page, context, status: 422)
        case .success(let read):
            rows = read
        }
        guard !rows.isEmpty else {
            page.fileError = t[.importNoRows]
            return renderer.response(page, context, status: 422)
        }
        let plan = try items.planImport(
            rows, defaultFolderId: folderId, folderIds: try folderIds(member), in: member.household, timeZone: timeZone)
        var token: String?
        if plan.problems.isEmpty {
            token = pending.keep(PendingCSV(data: data, folderId: folderId), for: member)
            guard token != nil else {
                // The household's room for waiting previews (or the server's) is full: nothing to confirm.
                page.fileError = t[.pendingStoreFull]
                return renderer.response(page, context, status: 503)
            }
        }
        page.preview = ImportPreview(plan, folders: page.folderList, token: token, t)
        return renderer.response(page, context, status: plan.problems.isEmpty ? 200 : 422)
    }

    /// Folder names a file may use, lowercased: the stored name, and a starter folder's name in every language.
    func folderIds(_ member: SignedIn) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for folder in try items.folders(in: member.household) {
            ids[folder.name.lowercased()] = ids[folder.name.lowercased()] ?? folder.id
            for catalog in renderer.localizations.languages {
                let shown = displayName(folder, catalog).lowercased()
                ids[shown] = ids[shown] ?? folder.id
            }
        }
        return ids
    }

    /// Units, kinds and statuses by their labels in every language.
    var vocabulary: ItemsCSVVocabulary {
        var words = ItemsCSVVocabulary()
        for catalog in renderer.localizations.languages {
            for unit in ItemUnit.allCases { if let label = catalog.texts["unit_" + unit.rawValue] { words.units[label.lowercased()] = unit.rawValue } }
            for kind in ItemKind.allCases { if let label = catalog.texts["kind_" + kind.rawValue] { words.kinds[label.lowercased()] = kind.rawValue } }
            for status in ItemStatus.allCases {
                if let label = catalog.texts["status_" + status.rawValue] { words.statuses[label.lowercased()] = status.rawValue }
            }
        }
        return words
    }

    static func message(_ problem: ItemsCSVFileProblem, _ t: Catalog) -> String {
        switch problem {
        case .empty: return t[.importFileEmpty]
        case .notCSV: return t[.importFileNotCsv]
        case .unreadableEncoding: return t[.importFileEncoding]
        case .noNameColumn: return t[.importFileNoName]
        case .tooLarge: return t.format(.importFileTooLarge, ["size": "\(ItemsCSVReader.maxBytes / 1024 / 1024)"])
        case .tooManyRows: return t.format(.importFileTooManyRows, ["count": String(ItemsCSVReader.maxRows)])
        }
    }
}
