import Foundation
import Testing

@testable import Reminders

/// The reminder engine asks the app's catalogs for its words by key name (it cannot see Web's
/// typed keys): every key it names is in every catalog, and its built-in English is en.json's.
@Suite struct ReminderTextsCatalogTests {
    @Test func everyKeyTheEngineNamesIsInEveryCatalogAndItsEnglishIsTheCatalogs() throws {
        let locales = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Templates/locales").standardized
        for file in try FileManager.default.contentsOfDirectory(atPath: locales.path) where file.hasSuffix(".json") {
            let texts = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: locales.appendingPathComponent(file)))
            for (key, english) in ReminderTexts.fallback {
                #expect(texts[key] != nil, "\(file) lacks \(key)")
                if file == "en.json" { #expect(texts[key] == english, "\(key)") }
            }
        }
    }
}
