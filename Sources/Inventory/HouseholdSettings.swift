import Foundation
import GRDB

/// The household's own settings.
public struct HouseholdSettings: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func household(_ scope: HouseholdScope) throws -> Household {
        try database.writer.read { db in try Self.household(db, scope.householdId) }
    }

    static func household(_ db: Database, _ id: Household.ID) throws -> Household {
        guard let household = try householdIfAny(db, id) else { throw InventoryError.notFound }
        return household
    }

    /// The household, nil when there is none. A cached statement: every page reads the household
    /// (its time zone and due window), and the query interface would build its SQL each time.
    static func householdIfAny(_ db: Database, _ id: Household.ID) throws -> Household? {
        try Household.fetchOne(db.cachedStatement(sql: "SELECT * FROM household WHERE id = ?"), arguments: [id])
    }

    public func update(_ scope: HouseholdScope, name: String, timeZone: String, dueSoonDays: String) throws {
        var errors: [String: FieldProblem] = [:]
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { errors["household"] = .householdNameRequired } else if trimmed.storedLength > 100 { errors["household"] = .nameTooLong }
        let days = Int(dueSoonDays.trimmingCharacters(in: .whitespaces))
        if days == nil || !(0...60).contains(days!) { errors["due_soon_days"] = .dueSoonInvalid }
        let fieldErrors = errors
        try database.writer.write { db in
            // The stored zone stays valid even if this system no longer knows it: saving the name keeps it.
            var errors = fieldErrors
            let stored = try String.fetchOne(db, sql: "SELECT time_zone FROM household WHERE id = ?", arguments: [scope.householdId])
            if timeZone != stored, TimeZone(identifier: timeZone) == nil { errors["time_zone"] = .timeZoneInvalid }
            if !errors.isEmpty { throw InventoryError.validation(errors) }
            try db.execute(
                sql: "UPDATE household SET name = ?, time_zone = ?, due_soon_days = ? WHERE id = ?",
                arguments: [trimmed, timeZone, days, scope.householdId])
        }
    }

    /// The zones offered for a household: every zone the system knows, UTC (missing from that list
    /// on Linux, and every household's first zone) and the household's own, so a form never offers
    /// less than what is stored.
    public static func timeZoneChoices(keeping stored: String) -> [String] {
        Set(TimeZone.knownTimeZoneIdentifiers + ["UTC"] + (stored.isEmpty ? [] : [stored])).sorted()
    }

    /// Whether `identifier` is a zone this system knows (UTC included): what a new household may have.
    public static func isKnown(timeZone identifier: String) -> Bool {
        identifier == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(identifier)
    }

    /// The zone of the machine Zaiko runs on (`TZ`, else /etc/localtime) when this system knows it
    /// by name, else UTC: a new household's zone when the browser does not say its own.
    public static var serverTimeZone: String {
        let identifier = TimeZone.current.identifier
        return isKnown(timeZone: identifier) ? identifier : "UTC"
    }

    /// The address Open Food Facts answers at; the default offered when the owner turns look-ups on.
    public static let defaultProductLookupURL = "https://world.openfoodfacts.org"

    /// Turns online barcode look-ups on (with the API's base address) or off (nil).
    public func setProductLookup(_ scope: HouseholdScope, url: String?) throws {
        var stored: String?
        if let url {
            let trimmed = url.trimmingCharacters(in: .whitespaces)
            guard let parsed = URL(string: trimmed), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false,
                parsed.query == nil, parsed.fragment == nil, parsed.user == nil, trimmed.count <= 300
            else { throw InventoryError.validation(["product_lookup_url": .lookupUrlInvalid]) }
            stored = trimmed.hasSuffix("/") ? String(trimmed.dropLast()) : trimmed
        }
        try database.writer.write { db in
            try db.execute(sql: "UPDATE household SET product_lookup_url = ? WHERE id = ?", arguments: [stored, scope.householdId])
        }
    }

    /// Lets members' recipe imports reach local and private addresses (when the operator's
    /// `--allow-private-outbound` allows them at all), or not.
    public func setMemberFetchesPrivate(_ scope: HouseholdScope, allowed: Bool) throws {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE household SET member_fetches_private = ? WHERE id = ?", arguments: [allowed, scope.householdId])
        }
    }
}
