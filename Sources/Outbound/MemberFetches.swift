import Foundation

/// Where requests a member sets off may go: a recipe import fetches whatever address any member
/// types (and the picture the page names). The operator's `--allow-private-outbound` is not enough
/// for those: with it alone, a member of any household could reach the server's home network and
/// map which of its ports answer. A member's fetch reaches a local or private address only when
/// the operator allows private outbound at all *and* the owner of that member's household has
/// allowed it in Settings; otherwise public addresses only.
///
/// Push channels and the barcode look-up go where an owner typed (a Settings address), so they
/// follow the operator's flag alone (`AddressPolicy(allowsPrivate:)`); a member only picks the
/// barcode, never the address.
public struct MemberFetches: Sendable {
    /// Whether the operator allows private outbound requests at all (`--allow-private-outbound`).
    public let operatorAllowsPrivate: Bool
    let publicOnly: any OutboundSending
    let homeNetwork: any OutboundSending

    public init(operatorAllowsPrivate: Bool, resolver: any HostResolving = SystemResolver()) {
        self.operatorAllowsPrivate = operatorAllowsPrivate
        publicOnly = OutboundHTTP(policy: .publicOnly, resolver: resolver)
        homeNetwork = OutboundHTTP(policy: Self.policy(operatorAllowsPrivate: operatorAllowsPrivate, ownerAllowsPrivate: true), resolver: resolver)
    }

    /// The policy for a member's fetch: private addresses only when both the operator and the
    /// household's owner allow them.
    public static func policy(operatorAllowsPrivate: Bool, ownerAllowsPrivate: Bool) -> AddressPolicy {
        AddressPolicy(allowsPrivate: operatorAllowsPrivate && ownerAllowsPrivate)
    }

    /// The client for a member of a household whose owner does (or does not) allow the home network.
    public func client(ownerAllowsPrivate: Bool) -> any OutboundSending {
        ownerAllowsPrivate && operatorAllowsPrivate ? homeNetwork : publicOnly
    }
}
