import ArgumentParser
import Exchange
import Foundation
import Inventory

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Create a household on this server from another program's data.", subcommands: [Grocy.self])

    struct Grocy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grocy",
            abstract: "Create a household from a Grocy database and print the link its owner opens to join it.",
            discussion: """
                Locations become stock lists, stock entries items, products with barcodes products, shopping lists \
                shopping lists. The Grocy file is only read. Stop Grocy first, or import a copy of its grocy.db.
                """)

        @Argument(help: "Grocy's database file (grocy.db, in Grocy's data folder).") var file: String
        @Option(help: "Grocy's product picture folder (data/storage/productpictures).") var photos: String?
        @Option(help: "The new household's name.") var name = "Home (from Grocy)"
        @Option(help: "The household's language for messages: the code of a catalog in Templates/locales (en, ja, …).") var language = "en"
        @OptionGroup var options: DataOptions

        func run() throws {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.storedLength <= 100 else { throw Failure(message: "A household needs a name of 1 to 100 characters.") }
            let pictures = photos.map { URL(fileURLWithPath: $0) }
            var isFolder: ObjCBool = false
            if let pictures, !FileManager.default.fileExists(atPath: pictures.path, isDirectory: &isFolder) || !isFolder.boolValue {
                throw Failure(message: "There is no folder \(pictures.path); pass Grocy's data/storage/productpictures with --photos.")
            }
            // Read before Zaiko's database is opened: a file that is refused leaves nothing behind, not even an empty database.
            let grocy: GrocyData
            do { grocy = try GrocyReader.read(URL(fileURLWithPath: file)) } catch let error as GrocyImportError { throw Failure(message: error.description) }
            let dataPath = options.data ?? ProcessInfo.processInfo.environment["ZAIKO_DATA"] ?? "./data"
            let result = try options.withDatabase(createIfMissing: true) { database in
                let store = try PhotoStore(directory: URL(fileURLWithPath: dataPath).appendingPathComponent("photos"), database: database)
                return try GrocyImport(database: database, photos: store).run(grocy, pictures: pictures, householdName: trimmed, language: language)
            }
            print("Household \"\(trimmed)\" created from \(URL(fileURLWithPath: file).lastPathComponent).")
            for line in result.report.lines { print(line) }
            print("Its owner joins through this link (valid 7 days, once):")
            print(options.link("/join/\(result.invitationToken)"))
        }
    }
}
