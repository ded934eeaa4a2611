import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// Words: plurals and counters through the catalogs (CLDR categories), one Japanese term per
/// concept, and starter folders named in each reader's language until someone renames them.
@Suite("Plural rules")
struct PluralRuleTests {
    @Test func englishTakesOneOnlyForAnIntegerOne() {
        let english = PluralRule(language: "en")
        #expect(english.categories == [.one, .other])
        #expect(english.category(of: "1") == .one)
        #expect(english.category(of: 1) == .one)
        for other in ["0", "2", "11", "0.5", "1.5", "1.0", "21"] { #expect(english.category(of: other) == .other, "\(other)") }
    }

    @Test func japaneseHasOneFormForEveryNumber() {
        let japanese = PluralRule(language: "ja")
        #expect(japanese.categories == [.other])
        for number in ["0", "1", "2", "0.5", "1.5"] { #expect(japanese.category(of: number) == .other, "\(number)") }
    }

    @Test func theCategoryNamesItsCatalogKey() {
        #expect(PluralCategory.other.key("qty_bottle") == "qty_bottle")
        #expect(PluralCategory.one.key("qty_bottle") == "qty_bottle_one")
    }

    @Test func quantitiesAreShownWithoutNeedlessZerosOrADanglingPoint() {
        #expect(Quantity.text(1.0004) == "1")
        #expect(Quantity.text(0.5) == "0.5")
        #expect(Quantity.text(2) == "2")
        #expect(Quantity.text(0.1 + 0.2) == "0.3")
        #expect(Quantity.text(0.05) == "0.05")
        #expect(Quantity.text(12.3456) == "12.346")
        #expect(Quantity.text(1999.9996) == "2000")
        #expect(Quantity.text(0.0004) == "0")
        #expect(Quantity.text(-1.25) == "-1.25")
        // Halfway between two thousandths as printf rounds the binary value.
        #expect(Quantity.text(0.0045) == String(format: "%.3f", 0.0045))
        #expect(Quantity.text(1.0005) == "1")
        // Thousandths as printf rounds them, for every amount a person types in steps of 0.001 up to 50.
        for thousandths in 0...50_000 where thousandths % 7 == 0 || thousandths < 2_000 {
            let value = Double(thousandths) / 1000
            var printed = String(format: "%.3f", value)
            while printed.hasSuffix("0") { printed.removeLast() }
            if printed.hasSuffix(".") { printed.removeLast() }
            #expect(Quantity.text(value) == printed, "\(value)")
        }
    }
}

@Suite("Counted phrases in the catalogs")
struct CatalogPluralTests {
    static let localizations = Result { Localizations.embedded }
    func catalog(_ code: String) throws -> Catalog { try #require(try Self.localizations.get().catalogs[code]) }

    @Test func everyUnitHasEveryCategoryOfEveryLanguage() throws {
        for catalog in try Self.localizations.get().languages {
            for unit in ItemUnit.allCases.map(\.rawValue) {
                for category in catalog.pluralRule.categories {
                    let key = category.key("qty_" + unit)
                    let text = catalog.texts[key]
                    #expect(text?.contains("{count}") == true, "\(catalog.code) lacks \(key)")
                }
            }
        }
    }

    /// One scheme for every counted phrase: the bare key is `other`, and a category form never
    /// stands without it.
    @Test func everyCategoryFormHasItsOtherForm() throws {
        for catalog in try Self.localizations.get().languages {
            for key in catalog.keys {
                for category in PluralCategory.allCases where category != .other && key.hasSuffix("_" + category.rawValue) {
                    let bare = String(key.dropLast(category.rawValue.count + 1))
                    #expect(catalog.keys.contains(bare), "\(catalog.code): \(key) without \(bare)")
                }
            }
        }
    }

    @Test func englishSaysOneBottleAndTwoBottles() throws {
        let en = try catalog("en")
        #expect(en.quantity(1, unit: "bottle") == "1 bottle")
        #expect(en.quantity(2, unit: "bottle") == "2 bottles")
        #expect(en.quantity(0, unit: "bottle") == "0 bottles")
        #expect(en.quantity(0.5, unit: "bottle") == "0.5 bottles")
        #expect(en.quantity(1, unit: "box") == "1 box")
        #expect(en.quantity(3, unit: "box") == "3 boxes")
        #expect(en.quantity(3, unit: "piece") == "3 pieces")
        #expect(en.quantity(0.5, unit: "kg") == "0.5 kg")
        #expect(en.count(.itemCount, 1) == "1 item")
        #expect(en.count(.itemCount, 2) == "2 items")
    }

    /// Rows take a unit's words split once per language: they must say what `plural` says, the
    /// exact-number form included.
    @Test func aQuantitySaysWhatItsPluralKeySays() throws {
        let made = Catalog(code: "en", texts: ["qty_egg": "{count} eggs", "qty_egg_one": "{count} egg", "qty_egg_=12": "a dozen ({count})"])
        #expect(made.quantity(12, unit: "egg") == "a dozen (12)")
        #expect(made.quantity(1, unit: "egg") == "1 egg")
        #expect(made.quantity(0.5, unit: "egg") == "0.5 eggs")
        for catalog in try Self.localizations.get().languages {
            for key in catalog.keys where key.hasPrefix("qty_") && !key.contains("_=") && !key.hasSuffix("_one") {
                for value in [0, 0.5, 1, 1.5, 2, 12, 250] {
                    let number = Quantity.text(value)
                    #expect(
                        catalog.quantity(value, unit: String(key.dropFirst(4))) == catalog.plural(named: key, number: number),
                        "\(catalog.code) \(key) \(number)")
                }
            }
        }
    }

    @Test func japaneseCountsWithCounters() throws {
        let ja = try catalog("ja")
        #expect(ja.quantity(2, unit: "bottle") == "2本")
        #expect(ja.quantity(1, unit: "bottle") == "1本")
        #expect(ja.quantity(3, unit: "piece") == "3個")
        #expect(ja.quantity(1, unit: "pack") == "1パック")
        #expect(ja.quantity(500, unit: "g") == "500g")
        #expect(ja.quantity(1.5, unit: "L") == "1.5L")
        #expect(ja.count(.itemCount, 1) == "1件")
    }

    /// A phrase for one exact number (ICU's `=1`) is not a plural category: Japanese has no `one`,
    /// yet says 「明日まで」 for a window of one day.
    @Test func anExactNumberFormComesBeforeTheCategory() throws {
        let en = try catalog("en"), ja = try catalog("ja")
        #expect(ja.count(.soonSoon, 1) == "明日まで")
        #expect(ja.count(.soonSoon, 2) == "2日以内")
        #expect(en.count(.soonSoon, 1) == "Due tomorrow")
        #expect(en.count(.soonSoon, 3) == "Due within 3 days")
        #expect(en.count(.folderDeleteItems, 1).hasPrefix("Its 1 item goes"))
    }

    @Test func theItemPageSaysTheQuantityInTheReadersWords() async throws {
        let fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        var input = ItemInput()
        input.name = "Soy sauce"
        input.quantity = "2"
        input.unit = "bottle"
        let id = try fixture.items.register([input], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)[0]
        let english = try fixture.send("GET", "/items/\(id)", as: fixture.member, headers: [("Accept-Language", "en")])
        #expect(english.text.contains("<dd>2 bottles</dd>"))
        let japanese = try fixture.send("GET", "/items/\(id)", as: fixture.member, headers: [("Accept-Language", "ja")])
        #expect(japanese.text.contains("<dd>2本</dd>"))
        let milk = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member, headers: [("Accept-Language", "en")])
        #expect(milk.text.contains("<dd>1 piece</dd>"))
    }

    @Test func listRowsCarryTheQuantityInTheReadersWords() throws {
        let en = try catalog("en"), ja = try catalog("ja")
        var item = Item(id: 1, draft: Item.Draft(householdId: 1, folderId: 1, name: "Beer", quantity: 6, unit: .can))
        let window = DueWindow(today: try #require(CalendarDay("2026-11-22")), soonDays: 3)
        #expect(ItemRowView(item, window: window, t: en, urls: .plain).amount == "6 cans")
        #expect(ItemRowView(item, window: window, t: ja, urls: .plain).amount == "6缶")
        item.quantity = 1
        #expect(ItemRowView(item, window: window, t: en, urls: .plain).amount == "1 can")
    }
}

@Suite("One Japanese term per concept")
struct JapaneseTermsTests {
    /// フォルダ (not フォルダー), アイテム (not 品目), 写真 (not 画像), イラスト.
    static let rejected = ["フォルダー", "品目", "画像"]

    @Test func theJapaneseCatalogUsesOneTermPerConcept() throws {
        let texts = try JSONDecoder().decode(
            [String: String].self, from: Data(contentsOf: repositoryRoot.appendingPathComponent("Templates/locales/ja.json")))
        for (key, text) in texts.sorted(by: { $0.key < $1.key }) {
            for word in Self.rejected { #expect(!text.contains(word), "ja.json \(key): \(text)") }
        }
    }

    @Test func noTemplateScriptOrSourceWritesARejectedVariant() throws {
        let roots = ["Templates", "Public/js", "Sources"].map { repositoryRoot.appendingPathComponent($0) }
        for root in roots {
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where ["mustache", "js", "swift", "json"].contains(file.pathExtension) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for word in Self.rejected { #expect(!text.contains(word), "\(file.path) writes \(word)") }
            }
        }
    }
}

@Suite("Starter folders in each reader's language")
struct StarterFolderNameTests {
    static let japanese = [("Accept-Language", "ja-JP,ja;q=0.9")]
    static let english = [("Accept-Language", "en-US,en;q=0.9")]

    @Test func theNameFollowsTheReaderOnlyForAnUnrenamedStarter() throws {
        let localizations = Localizations.embedded
        let ja = try #require(localizations.catalogs["ja"]), en = try #require(localizations.catalogs["en"])
        var fridge = Folder(id: 1, draft: Folder.Draft(householdId: 1, name: "Fridge", kind: .stock))
        fridge.starter = "starter_fridge"
        #expect(displayName(fridge, ja) == "冷蔵庫")
        #expect(displayName(fridge, en) == "Fridge")
        fridge.starter = nil
        #expect(displayName(fridge, ja) == "Fridge")
        #expect(displayName("Kitchen", starter: "not_a_starter", ja) == "Kitchen")
    }

    @Test func twoMembersReadTheSameFoldersInTheirOwnLanguages() async throws {
        let fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        var input = ItemInput()
        input.name = "Natto"
        input.due = CalendarDay.today(in: .gmt, now: fixture.clock.now).description
        _ = try fixture.items.register([input], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)

        let home = try fixture.send("GET", "/", as: fixture.member, headers: Self.japanese).text
        for name in ["冷蔵庫", "冷凍庫", "パントリー", "スーパー"] { #expect(home.contains("<span class=\"folder-name\">\(name)</span>"), "\(name)") }
        #expect(!home.contains("Fridge"))
        #expect(try fixture.send("GET", "/", as: fixture.owner, headers: Self.english).text.contains("<span class=\"folder-name\">Fridge</span>"))

        let list = try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.member, headers: Self.japanese).text
        #expect(list.contains("<title>冷蔵庫"))
        #expect(list.contains(">スーパー</option>"), "the move select")
        let editor = try fixture.send("GET", "/items/new?folder=\(fixture.fridgeId)", as: fixture.member, headers: Self.japanese).text
        #expect(editor.contains(">冷蔵庫</option>"))
        let soon = try fixture.send("GET", "/soon", as: fixture.member, headers: Self.japanese).text
        #expect(soon.contains("</span>冷蔵庫</span>"), "use soon names the folder")
        let edit = try fixture.send("GET", "/folders/\(fixture.fridgeId)/edit", as: fixture.member, headers: Self.japanese).text
        #expect(edit.contains("value=\"冷蔵庫\""))

        // Ken sends the form back with only the icon changed: no rename.
        let iconOnly = try fixture.send(
            "POST", "/folders/\(fixture.fridgeId)", as: fixture.member, form: [("name", "冷蔵庫"), ("icon", "milk")], headers: Self.japanese)
        #expect(iconOnly.status == 303)
        #expect(try fixture.send("GET", "/", as: fixture.owner, headers: Self.english).text.contains("<span class=\"folder-name\">Fridge</span>"))

        // Aki renames it: everyone reads the chosen name.
        let renamed = try fixture.send(
            "POST", "/folders/\(fixture.fridgeId)", as: fixture.owner, form: [("name", "Kitchen"), ("icon", "fridge")], headers: Self.english)
        #expect(renamed.status == 303)
        let after = try fixture.send("GET", "/", as: fixture.member, headers: Self.japanese).text
        #expect(after.contains("<span class=\"folder-name\">Kitchen</span>"))
        #expect(after.contains("<span class=\"folder-name\">冷凍庫</span>"))
    }
}
