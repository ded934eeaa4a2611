import Foundation
import HTTPServer
import Inventory

/// Renders pages: each page's template is compiled into Swift at build time (see `CompiledPage`),
/// and the languages' texts are embedded too (`Localizations.embedded`): nothing is read at start.
public struct Renderer: Sendable {
    public let localizations: Localizations
    /// Where pages find public files (their versioned addresses).
    let staticURLs: StaticURLs

    /// `staticFiles`: the public files pages name by version; nil names them by their plain address.
    public init(localizations: Localizations = .embedded, staticFiles: StaticFiles? = nil) {
        self.localizations = localizations
        staticURLs = StaticURLs(files: staticFiles)
    }
}

/// The signed-in member as the header and the pages see them.
struct MemberChrome {
    /// Whose page it is: a phone keeps the actions it could not send yet by member (see app.js).
    let memberId: Int64
    let name: String
    let household: String
    let canWrite: Bool
    let isOwner: Bool
    /// Where the page's live updates start (see `SignedIn.changeSequence`).
    let since: Int64
    /// The household's, in which the offline banner says when its copy was saved.
    let timeZone: String

    init(_ member: SignedIn) {
        memberId = member.memberId.rawValue
        name = member.memberName
        household = member.householdName
        canWrite = member.role.canWrite
        isOwner = member.role == .owner
        since = member.changeSequence
        timeZone = member.timeZone
    }
}
