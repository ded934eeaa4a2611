import ArgumentParser
import Exchange
import Foundation
import Inventory

extension HouseholdCommand {
    /// `zaiko household import EXPORT.zip`: a household moved from another server (its Settings ›
    /// Export), created here as a new household with an owner invitation.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Create a household from another server's export (Settings › Export) and print the link its owner joins with.")
        @Argument(help: "The ZIP file the other server's Settings › Export downloaded.") var export: String
        @OptionGroup var options: DataOptions

        func run() throws {
            let file = URL(fileURLWithPath: export)
            // A new box may have no database yet: it is made here, and removed again if the import is refused.
            let databaseFile = options.dataURL.appendingPathComponent("zaiko.sqlite")
            let photosFolder = options.dataURL.appendingPathComponent("photos")
            let newDatabase = !FileManager.default.fileExists(atPath: databaseFile.path)
            let newPhotosFolder = !FileManager.default.fileExists(atPath: photosFolder.path)
            let report: HouseholdImportReport
            do {
                report = try options.withDatabase(createIfMissing: true) { database in
                    let photos = try PhotoStore(directory: photosFolder, database: database)
                    return try HouseholdImport(database: database, photos: photos).run(file)
                }
            } catch let error as HouseholdImportError {
                if newDatabase {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databaseFile.path + suffix) }
                }
                if newPhotosFolder, (try? FileManager.default.contentsOfDirectory(atPath: photosFolder.path))?.isEmpty == true {
                    try? FileManager.default.removeItem(at: photosFolder)
                }
                throw Failure(message: error.description)
            }
            let trash = report.trashedItems > 0 ? " (and \(report.trashedItems) in the trash)" : ""
            print("Household \"\(report.householdName)\" imported: \(report.folders) folder(s), \(report.items) item(s)\(trash),")
            print("\(report.historyLines) history line(s), \(report.products) product(s), \(report.recipes) recipe(s), \(report.photos) photo(s).")
            if !report.members.isEmpty {
                print("")
                print("Its old members are listed with their names and roles, so the history still says who did what,")
                print("but passwords do not move between servers: none of them can sign in yet. To give one their")
                print("account back, run `zaiko user reset-password LOGIN` and send them the link:")
                for member in report.members { print("  \(member.name) (\(member.role)): login \(member.login)") }
                print("")
            }
            print("Its owner joins through this link (valid 7 days, once):")
            print(options.link("/join/\(report.invitationToken)"))
        }
    }
}

extension DataOptions {
    /// The data folder as given (`--data`, ZAIKO_DATA, ./data).
    var dataURL: URL { URL(fileURLWithPath: data ?? ProcessInfo.processInfo.environment["ZAIKO_DATA"] ?? "./data") }
}
