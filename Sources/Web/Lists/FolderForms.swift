/// The forms `FoldersController` reads (decoded by `FormDecoder`).

/// A folder's name and icon; a new folder's kind too (a stock list unless it says shopping).
struct FolderForm: Decodable {
    var name: String
    var kind: String
    var icon: String
}

/// One step up or down the folders' order: "up", or down for anything else.
struct FolderStepForm: Decodable {
    var step: String
}
