import Inventory

/// The forms `CSVImportController` reads (decoded by `FormDecoder`); the file comes as `file`.

/// The file's folder: where lines that name none go.
struct ImportForm: Decodable {
    var folder: Folder.ID?
}

/// "Import": the preview's token, which names the file kept since the preview.
struct ImportConfirmForm: Decodable {
    var token: String
}
