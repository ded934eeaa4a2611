import Foundation
import HTTPServer
import Inventory
import Mustache

/// The owner's page for members and invitations.
struct MembersController {
    let accounts: Accounts
    let settings: HouseholdSettings
    let renderer: Renderer
    /// How members reach the server, for the invitation link: https behind a TLS proxy.
    let scheme: String

    func register(in router: inout Router<Endpoint>) {
        router.get("/settings", .owner) { context in
            renderer.response(try page(context), context)
        }
        router.post("/settings/household", .owner) { context in
            let member = try context.signedIn
            do {
                try settings.update(member.householdId, name: context.field("household"), timeZone: context.field("time_zone"),
                                    dueSoonDays: context.field("due_soon_days"))
                return .redirect(to: "/settings?saved=household")
            } catch InventoryError.validation(let fields) {
                return renderer.response(try page(context, householdErrors: fields.mapValues { context.locale[$0] }), context, status: 422)
            }
        }
        router.post("/settings/invitations", .owner) { context in
            let member = try context.signedIn
            guard let role = Role(rawValue: context.field("role")) else {
                return renderer.response(try page(context, error: context.locale["role_invalid"]), context, status: 422)
            }
            let token = try accounts.invite(householdId: member.householdId, role: role)
            return .redirect(to: "/settings?invitation=\(token)")
        }
        router.post("/settings/invitations/{id}/cancel", .owner) { context in
            try accounts.cancelInvitation(id: try context.id(), householdId: try context.signedIn.householdId)
            return .redirect(to: "/settings")
        }
        router.post("/settings/members/{id}/role", .owner) { context in
            let member = try context.signedIn
            let id = try context.id()
            do {
                try accounts.changeRole(memberId: id, to: context.field("role"), householdId: member.householdId)
                return .redirect(to: "/settings")
            } catch InventoryError.validation(let fields) {
                return renderer.response(try page(context, error: fields["role"].map { context.locale[$0] }), context, status: 422)
            }
        }
        router.post("/settings/members/{id}/remove", .owner) { context in
            let member = try context.signedIn
            do {
                try accounts.removeMember(memberId: try context.id(), householdId: member.householdId)
                return .redirect(to: "/settings")
            } catch InventoryError.validation(let fields) {
                return renderer.response(try page(context, error: fields["role"].map { context.locale[$0] }), context, status: 422)
            }
        }
    }

    func page(_ context: RequestContext, error: String? = nil, householdErrors: [String: String] = [:]) throws -> MembersPage {
        let me = try context.signedIn
        let t = context.locale
        let household = try settings.household(me.householdId)
        let posted = context.request.path == "/settings/household"
        let zone = posted ? context.field("time_zone") : household.timeZone
        let householdFields = [
            FormField(name: "household", label: t["field_household"], value: posted ? context.field("household") : household.name,
                      error: householdErrors["household"], required: true, maxLength: 100),
            FormField(name: "time_zone", label: t["field_time_zone"], kind: .select, error: householdErrors["time_zone"],
                      options: TimeZone.knownTimeZoneIdentifiers.sorted().map { .init(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), selected: $0 == zone) }),
            FormField(name: "due_soon_days", label: t["field_due_soon_days"], value: posted ? context.field("due_soon_days") : "\(household.dueSoonDays)",
                      error: householdErrors["due_soon_days"], hint: t["due_soon_hint"], inputType: "number", maxLength: 2),
        ]
        let members = try accounts.members(householdId: me.householdId).map { member in
            MembersPage.Row(
                id: member.id ?? 0, name: member.name, login: member.login, role: t["role_\(member.role.rawValue)"],
                roleOptions: t.roleOptions(selected: member.role), isMe: member.id == me.memberId)
        }
        let invitations = try accounts.pendingInvitations(householdId: me.householdId).map {
            MembersPage.Invitation(id: $0.id, role: t["role_\($0.role.rawValue)"],
                                   expires: DisplayFormat.dateTime($0.expiresAt, timeZone: me.timeZone, locale: t))
        }
        // A new invitation's link is shown once, right after it was made.
        var newLink: String?
        if let token = context.request.query["invitation"], let link = try accounts.link(token: token, purpose: .invitation),
            link.householdId == me.householdId {
            let host = context.request.headers["host"] ?? "localhost"
            newLink = "\(scheme)://\(host)/join/\(token)"
        }
        return MembersPage(
            heading: t["members_heading"], error: error, members: members, invitations: invitations, newLink: newLink,
            inviteRoles: t.roleOptions(selected: .member), householdFields: householdFields,
            saved: context.request.query["saved"] == "household" ? t["saved_profile"] : nil)
    }
}

struct MembersPage: PageView {
    static let template = "settings"

    struct Row: MustacheParent, Sendable {
        let id: Int64
        let name: String
        let login: String
        let role: String
        let roleOptions: [FormField.Option]
        let isMe: Bool
        func child(named key: String) -> Any? {
            switch key {
            case "id": return id
            case "name": return name
            case "login": return login
            case "role": return role
            case "roleOptions": return roleOptions
            case "isMe": return isMe
            default: return nil
            }
        }
    }

    struct Invitation: MustacheParent, Sendable {
        let id: Int64
        let role: String
        let expires: String
        func child(named key: String) -> Any? {
            switch key {
            case "id": return id
            case "role": return role
            case "expires": return expires
            default: return nil
            }
        }
    }

    let heading: String
    let error: String?
    let members: [Row]
    let invitations: [Invitation]
    let newLink: String?
    let inviteRoles: [FormField.Option]
    var householdFields: [FormField] = []
    var saved: String? = nil

    func title(_ t: Catalog) -> String { heading }

    func child(named name: String) -> Any? {
        switch name {
        case "heading": return heading
        case "error": return error
        case "members": return members
        case "invitations": return invitations
        case "hasInvitations": return !invitations.isEmpty
        case "newLink": return newLink
        case "inviteRoles": return inviteRoles
        case "householdFields": return householdFields
        case "saved": return saved
        default: return nil
        }
    }
}
