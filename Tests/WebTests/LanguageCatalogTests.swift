import Foundation
import HTTPServer
import Inventory
import Logging
import Testing
import Web

/// Adding a language is adding a file: a catalog dropped into Templates/locales is offered in the
/// language picker (named in its own words) and names the starter folders of a household set up in it.
@Suite("Languages come from the catalogs")
struct LanguageCatalogTests {
    /// A copy of the repository's Templates/ with a French catalog made from the English one, and
    /// the real Public/ beside it.
    static func resourcesWithFrench() throws -> Resources {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-languages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Templates"), to: root.appendingPathComponent("Templates"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("Public"), withDestinationURL: repositoryRoot.appendingPathComponent("Public"))
        let locales = root.appendingPathComponent("Templates/locales")
        var texts = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: locales.appendingPathComponent("en.json")))
        texts["language_name"] = "Français"
        texts["starter_fridge"] = "Réfrigérateur"
        texts["starter_freezer"] = "Congélateur"
        texts["starter_pantry"] = "Garde-manger"
        texts["starter_supermarket"] = "Supermarché"
        try JSONEncoder().encode(texts).write(to: locales.appendingPathComponent("fr.json"))
        return Resources(root: root)
    }

    @Test func aCatalogAddedAsAFileIsOfferedAndNamesTheStarterFolders() async throws {
        let database = try AppDatabase.inMemory()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let hasher = Argon2id(opsLimit: 1, memLimit: 8192)
        let app = try await App(
            database: database, resources: try Self.resourcesWithFrench(), logger: logger,
            options: AppOptions(setupCode: "ABCD2345", hasher: hasher))

        let setup = app.respond(
            to: Request(
                method: "POST", path: "/setup",
                headers: Headers([("Host", "zaiko.test"), ("Accept-Language", "fr-FR,fr;q=0.9"), ("Cookie", "zaiko_csrf=anonymous-token")]),
                form: Parameters([
                    ("household", "Maison"), ("name", "Amélie"), ("login", "amelie"), ("password", "correct horse battery"),
                    ("password_confirm", "correct horse battery"), ("setup_code", "abcd2345"), ("_csrf", "anonymous-token"),
                ]),
                clientAddress: "192.168.1.30"))
        #expect(setup.status == 303)
        let session = try #require(setup.cookie("zaiko_session"))
        let owner = try #require(try Accounts(database: database, hasher: hasher).session(token: session))
        let folders = try Items(database: database).folders(householdId: owner.householdId).map(\.name)
        #expect(folders == ["Réfrigérateur", "Congélateur", "Garde-manger", "Supermarché"])

        let account = app.respond(
            to: Request(
                method: "GET", path: "/account", headers: Headers([("Host", "zaiko.test"), ("Cookie", "zaiko_session=\(session)")])))
        #expect(account.status == 200)
        #expect(account.text.contains(#"<option value="fr""#))
        #expect(account.text.contains("Français"))
        #expect(account.text.contains("日本語") && account.text.contains("English"))
    }

    @Test func placeholdersAreFilledOnceAndUserTextIsNeverReadForThem() {
        let t = Catalog(code: "en", texts: ["moved": "{name} moved to {folder} ({count})", "braces": "{ {x} }"])
        #expect(t.format("moved", ["name": "Milk {folder}", "folder": "Fridge", "count": "2"]) == "Milk {folder} moved to Fridge (2)")
        #expect(t.format("moved", ["name": "牛乳"]) == "牛乳 moved to {folder} ({count})")
        #expect(t.format("braces", ["x": "1"]) == "{ 1 }")
        #expect(t.count("moved", 3, ["name": "{count}", "folder": "冷蔵庫"]) == "{count} moved to 冷蔵庫 (3)")
    }

    @Test func everyShippedCatalogNamesItsLanguageAndTheStarterFolders() throws {
        let localizations = try Localizations(directory: repositoryRoot.appendingPathComponent("Templates/locales"))
        #expect(localizations.languages.map(\.code) == ["en", "ja"])
        #expect(localizations.languages.map(\.languageName) == ["English", "日本語"])
        for catalog in localizations.languages {
            #expect(Set(catalog.starterFolderNames.keys) == Set(Accounts.starterFolders.map(\.key)), "\(catalog.code)")
        }
        #expect(localizations.catalogs["ja"]?.starterFolderNames["starter_fridge"] == "冷蔵庫")
    }
}
