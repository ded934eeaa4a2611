import ArgumentParser
import Foundation
import Inventory
import Web

/// Options shared by the commands that work on the database directly.
struct DataOptions: ParsableArguments {
    @Option(help: "Folder holding zaiko.sqlite. (ZAIKO_DATA, default ./data)")
    var data: String?

    @Option(help: "The address members use, for the printed links. (ZAIKO_BASE_URL, default http://<this machine>:8080)")
    var baseURL: String?

    func open(createIfMissing: Bool = false) throws -> AppDatabase {
        DataDirectory.keepNewFilesPrivate()
        let path = data ?? ProcessInfo.processInfo.environment["ZAIKO_DATA"] ?? "./data"
        let file = URL(fileURLWithPath: path).appendingPathComponent("zaiko.sqlite")
        if createIfMissing { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        guard createIfMissing || FileManager.default.fileExists(atPath: file.path) else {
            throw Failure(message: "There is no Zaiko database in \(path); start the server once or pass --data.")
        }
        do { return try AppDatabase.open(at: file) } catch let error as InventoryError { throw Failure(message: error.description) }
    }

    /// Runs `work` on the database, then closes it so the write-ahead log is folded into the file
    /// (a copy of `zaiko.sqlite` alone then holds what the command wrote).
    func withDatabase<T>(createIfMissing: Bool = false, _ work: (AppDatabase) throws -> T) throws -> T {
        let database = try open(createIfMissing: createIfMissing)
        let result: T
        do {
            result = try work(database)
        } catch {
            try? database.close()
            throw error
        }
        try database.close()
        return result
    }

    func link(_ path: String) -> String {
        let base =
            baseURL ?? ProcessInfo.processInfo.environment["ZAIKO_BASE_URL"]
            ?? "http://\(NetworkAddresses.lan().first ?? "127.0.0.1"):8080"
        return base.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
    }
}

struct HouseholdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "household", abstract: "Create, list and import households (for the person who runs the server).",
        subcommands: [Create.self, List.self, Import.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a household and print the link its owner opens to join it.")
        @Argument(help: "The household's name.") var name: String
        @Option(help: "Language of the starter folder names: the code of a catalog in Templates/locales (en, ja, …).") var language = "en"
        @OptionGroup var options: DataOptions

        func run() throws {
            do {
                let token = try options.withDatabase { database in
                    try Accounts(database: database).createHousehold(name: name, language: language, folderNames: HouseholdCommand.starterFolderNames(language))
                }
                print("Household \"\(name)\" created. Its owner joins through this link (valid 7 days, once):")
                print(options.link("/join/\(token)"))
            } catch InventoryError.validation {
                throw Failure(message: "A household needs a name of 1 to 100 characters.")
            }
        }
    }

    /// The starter folders named by the language's catalog (none for a language Zaiko lacks).
    static func starterFolderNames(_ language: String) -> [String: String] {
        Localizations.embedded.catalogs[language]?.starterFolderNames ?? [:]
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the households on this server.")
        @OptionGroup var options: DataOptions

        func run() throws {
            let households = try options.withDatabase { try Accounts(database: $0).households() }
            if households.isEmpty { print("No households yet.") }
            for household in households {
                let owners = household.owners.isEmpty ? "no owner yet" : "owners: \(household.owners.joined(separator: ", "))"
                print("\(household.id)\t\(household.name)\t\(household.members) member(s)\t\(owners)")
            }
        }
    }
}

struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Help a member who is locked out, or make a token for a tool.", subcommands: [ResetPassword.self, Token.self])

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new personal access token of LOGIN for the API (members make their own on the account page).")
        @Argument(help: "The member's login.") var login: String
        @Option(help: "What the token is for.") var name = "Home Assistant"
        @Option(help: "read, shopping, stock or all.") var scope = "all"
        @OptionGroup var options: DataOptions

        func run() throws {
            do {
                print(try options.withDatabase { try Accounts(database: $0).createToken(name: name, scope: scope, login: login) })
            } catch InventoryError.notFound {
                throw Failure(message: "No member has the login \"\(login)\".")
            } catch InventoryError.validation(let problems) {
                let fields = problems.keys.sorted().joined(separator: ", ")
                throw Failure(message: "Refused: \(fields) (a name of 1 to 100 characters; read, shopping, stock or all).")
            }
        }
    }

    struct ResetPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Print a single-use link (valid one day) where LOGIN sets a new password.")
        @Argument(help: "The member's login.") var login: String
        @OptionGroup var options: DataOptions

        func run() throws {
            do {
                let token = try options.withDatabase { try Accounts(database: $0).createPasswordReset(login: login) }
                print("Open this link to set a new password for \(login) (valid one day, once):")
                print(options.link("/reset/\(token)"))
            } catch InventoryError.notFound {
                throw Failure(message: "No member has the login \"\(login)\".")
            }
        }
    }
}
