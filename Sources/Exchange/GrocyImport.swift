import Foundation
import Inventory

/// What `GrocyImport.run` made: the new household, its owner's invitation token and the report.
public struct GrocyImportResult: Sendable {
    public let household: HouseholdScope
    public let invitationToken: String
    public let report: GrocyReport
}

/// A new household from a Grocy database: locations become stock lists, stock entries items,
/// products with barcodes Zaiko's products, shopping lists shopping lists. Pictures are written
/// first; everything else is one transaction, and the pictures go again if it fails.
public struct GrocyImport: Sendable {
    let database: AppDatabase
    let photos: PhotoStore
    let clock: WallClock

    /// Grocy's best-before date for "never expires".
    static let neverExpires = "2999-12-31"

    public init(database: AppDatabase, photos: PhotoStore, clock: WallClock = .system) {
        self.database = database
        self.photos = photos
        self.clock = clock
    }

    /// `pictures`: Grocy's product picture folder, if the person has it.
    public func run(file: URL, pictures: URL?, householdName: String, language: String = "en") throws -> GrocyImportResult {
        try run(GrocyReader.read(file), pictures: pictures, householdName: householdName, language: language)
    }

    /// The same for a file already read (the command reads it before it opens Zaiko's database).
    public func run(_ data: GrocyData, pictures: URL?, householdName: String, language: String = "en") throws -> GrocyImportResult {
        var report = GrocyReport()
        let written = try GrocyPictures.write(data.products, from: pictures, into: photos, report: &report)
        do {
            let accounts = Accounts(database: database, clock: clock)
            let (token, (household, filledReport)) = try accounts.createHousehold(name: householdName, language: language) { household in
                var writer = GrocyHouseholdWriter(
                    household: household, data: data, photos: photos, written: written, time: Timestamp(clock.now()),
                    report: report)
                try writer.write()
                return (household.scope, writer.report)
            }
            return GrocyImportResult(household: household, invitationToken: token, report: filledReport)
        } catch {
            GrocyPictures.remove(Array(written.values), from: photos)
            throw error
        }
    }
}
