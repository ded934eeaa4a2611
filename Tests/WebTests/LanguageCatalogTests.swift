import Foundation
import HTTPServer
import Inventory
import Logging
import Testing

@testable import Web

/// Adding a language is adding a file: a catalog in Templates/locales is built into the binary
/// (`Localizations.embedded`; the generator's side is `TextKeysTests`), offered in the language
/// picker (named in its own words) and names the starter folders of a household set up in it.
@Suite("Languages come from the catalogs")
struct LanguageCatalogTests {
    /// The shipped catalogs and a French one made from the English one, as a build with
    /// Templates/locales/fr.json has them.
    static func withFrench() -> Localizations {
        var texts = Localizations.embedded.fallback.texts
        texts["language_name"] = "Français"
        texts["starter_fridge"] = "Réfrigérateur"
        texts["starter_freezer"] = "Congélateur"
        texts["starter_pantry"] = "Garde-manger"
        texts["starter_supermarket"] = "Supermarché"
        return Localizations(Localizations.embedded.languages + [Catalog(code: "fr", texts: texts)])
    }

    @Test func aCatalogBuiltInIsOfferedAndNamesTheStarterFolders() async throws {
        let database = try AppDatabase.inMemory()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let hasher = Argon2id(opsLimit: 1, memLimit: 8192)
        var options = AppOptions(setupCode: "ABCD2345", hasher: hasher)
        options.localizations = Self.withFrench()
        let app = try await App(database: database, resources: repositoryResources, logger: logger, options: options)

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
        let folders = try Items(database: database).folders(in: owner.household).map(\.name)
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
        let moved = "{name} moved to {folder} ({count})"
        #expect(Catalog.fill(moved, ["name": "Milk {folder}", "folder": "Fridge", "count": "2"]) == "Milk {folder} moved to Fridge (2)")
        #expect(Catalog.fill(moved, ["name": "牛乳"]) == "牛乳 moved to {folder} ({count})")
        #expect(Catalog.fill("{ {x} }", ["x": "1"]) == "{ 1 }")
        // "Put {count} items on {list}.": the count is filled once, a list named "{count}" stays as typed.
        let en = Localizations.embedded.fallback
        #expect(en.count(.noticeCopiedMany, 3, ["list": "{count}"]) == "Put 3 items on {count}.")
    }

    @Test func everyShippedCatalogNamesItsLanguageAndTheStarterFolders() throws {
        let localizations = Localizations.embedded
        #expect(localizations.languages.map(\.code) == ["en", "ja"])
        #expect(localizations.languages.map(\.languageName) == ["English", "日本語"])
        for catalog in localizations.languages {
            #expect(Set(catalog.starterFolderNames.keys) == Set(Accounts.starterFolders.map(\.key)), "\(catalog.code)")
        }
        #expect(localizations.catalogs["ja"]?.starterFolderNames["starter_fridge"] == "冷蔵庫")
    }
}
