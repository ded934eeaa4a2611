import Foundation
import Testing

@testable import Backups

/// A failed backup's push message asks the app's catalogs for its words by key name (Backups
/// cannot see Web's typed keys): every key it names is in every catalog, and its built-in English
/// is en.json's.
@Suite struct BackupTextsCatalogTests {
    @Test func everyKeyTheBackupsNameIsInEveryCatalogAndItsEnglishIsTheCatalogs() throws {
        let locales = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Templates/locales").standardized
        #expect(Set(BackupFailureReason.allCases.map { "backup_failure_\($0.rawValue)" }).isSubset(of: BackupTexts.fallback.keys))
        for file in try FileManager.default.contentsOfDirectory(atPath: locales.path) where file.hasSuffix(".json") {
            let texts = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: locales.appendingPathComponent(file)))
            for (key, english) in BackupTexts.fallback {
                #expect(texts[key] != nil, "\(file) lacks \(key)")
                if file == "en.json" { #expect(texts[key] == english, "\(key)") }
            }
        }
    }
}
