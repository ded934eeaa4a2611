import Inventory

/// Why a push message did not go out, in the reader's words: a sentence per kind of failure saying
/// what happened and what to try, and the raw reason (the endpoint's status, the failure's code)
/// for a smaller second line that helps whoever runs the push server.
struct PushFailureText: Sendable {
    let sentence: String
    let detail: String

    /// `frame`: a catalog sentence holding the explanation as `{error}` ("The test could not be sent. {error}").
    init(_ failure: PushFailure, _ t: Catalog, in frame: String? = nil, _ values: [String: String] = [:]) {
        let explained = t[named: Self.key(failure)]
        sentence = frame.map { t.format(named: $0, values.merging(["error": explained]) { _, new in new }) } ?? explained
        detail = t.format(.pushErrorDetail, ["detail": failure.stored])
    }

    /// The catalog key of the explanation: statuses grouped by what the owner can do about them.
    static func key(_ failure: PushFailure) -> String {
        guard case .status(let code) = failure else { return TextFamily.pushError.name(failure.stored) }
        let key: TextKey =
            switch code {
            case 401, 403: .pushErrorStatusAuth
            case 404, 410: .pushErrorStatusNotFound
            case 429: .pushErrorStatusBusy
            case 500...599: .pushErrorStatusServer
            default: .pushErrorStatus
            }
        return key.name
    }
}

/// The outcome of "Send a test": sent or on its way (a message), or why it failed.
struct PushTestResult: Sendable {
    var message: String?
    var failure: PushFailureText?
}
