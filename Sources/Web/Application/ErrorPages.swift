import HTTPServer
import Inventory

/// The error page for a status, in the reader's language. Never shows internals
/// (`Templates/error.mustache`, compiled).
struct ErrorPage: CompiledPage {
    let status: Int
    let heading: String
    let message: String

    init(status: Int, heading: String, message: String) {
        self.status = status
        self.heading = heading
        self.message = message
    }

    init(status: Int, locale: Catalog) {
        let known = [400, 403, 404, 405, 413, 422, 500].contains(status) ? status : (status >= 500 ? 500 : 400)
        self.status = status
        heading = locale[.errorTitle, known]
        message = locale[.errorMessage, known]
    }

    /// The server's own storage refused a write: say so (it is not the reader's fault, and trying
    /// again will not help until someone frees space), 507 when full, else 503.
    init(storage: StorageFailure, locale: Catalog) {
        status = storage.status
        heading = locale[.storageTitle, storage.messageKey]
        message = locale[.storageMessage, storage.messageKey]
    }

    func title(_ t: Catalog) -> String { heading }
}

extension Renderer {
    func errorResponse(_ status: Int, locale: Catalog) -> Response {
        let body = bytes(ErrorPage(status: status, locale: locale), locale: locale)
        return Response(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(body))
    }
}

extension StorageFailure {
    /// 507 Insufficient Storage for a full disk; 503 while storage is read-only or failing.
    var status: Int { self == .full ? 507 : 503 }

    /// The status of a form shown again with these texts beside its fields: a storage failure's
    /// (507 when the disk is full, else 503) when one of them is one, else nil.
    static func status(of texts: some Sequence<TextKey>) -> Int? {
        let failures = [StorageFailure.full, .readOnly, .failing, .databaseFileChanged]
        let found = Set(texts).compactMap { text in failures.first { $0.text == text } }
        return found.contains(.full) ? 507 : found.first?.status
    }

    /// The sentence that tells the reader, beside a field or at the top of a form.
    var text: TextKey {
        switch self {
        case .full: .storageFull
        case .readOnly: .storageReadOnly
        case .failing: .storageFailing
        case .databaseFileChanged: .storageFileChanged
        }
    }

    /// The key of that sentence, which its error page's heading and message extend (`_title`, `_message`).
    var messageKey: String { text.name }
}
