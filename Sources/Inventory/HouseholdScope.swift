/// The one household a store method reads or writes, as Inventory hands it out: from a live
/// session (`SignedIn.household`), when a household is created (setup, the demo, an import), and
/// to the background work that walks every household (reminders, digests, calendar feeds,
/// backups' notices) through named methods.
///
/// Every store method that touches one household's rows takes a scope rather than a number, and
/// only Inventory can make one: the initialiser is not public, so a page cannot turn an id from a
/// request, a form or another household into a scope, and a query's `household_id = ?` is always
/// the household the session or Inventory itself named.
public struct HouseholdScope: Sendable, Hashable {
    /// The household's id, bound in the queries of its rows.
    public let householdId: Household.ID

    init(_ householdId: Household.ID) {
        self.householdId = householdId
    }
}
