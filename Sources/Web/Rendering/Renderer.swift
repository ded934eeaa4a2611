import Foundation
import HTTPServer
import Inventory

/// Renders pages: each page's template is compiled into Swift at build time (see `CompiledPage`);
/// what is read at start is only the languages' texts, from `Templates/locales`.
public struct Renderer: Sendable {
    public let localizations: Localizations

    public init(templates: URL) async throws {
        localizations = try Localizations(directory: templates.appendingPathComponent("locales"))
    }
}

/// The signed-in member as the header and the pages see them.
struct MemberChrome {
    let name: String
    let household: String
    let canWrite: Bool
    let isOwner: Bool

    init(_ member: SignedIn) {
        name = member.memberName
        household = member.householdName
        canWrite = member.role.canWrite
        isOwner = member.role == .owner
    }
}
