import CSV
import Foundation
import Inventory

/// Words a file may use for Zaiko's codes: the labels people see, in every language, lowercased,
/// by code ("本" → "bottle", "dairy & eggs" → "dairy_eggs"). Exchange knows no locales: the web
/// layer builds this from its catalogs.
public struct ItemsCSVVocabulary: Sendable {
    public var units: [String: String]
    public var kinds: [String: String]
    public var statuses: [String: String]

    public init(units: [String: String] = [:], kinds: [String: String] = [:], statuses: [String: String] = [:]) {
        self.units = units
        self.kinds = kinds
        self.statuses = statuses
    }
}

/// Reads an items CSV (the columns of the export's items.csv) into rows for `Items.planImport`.
/// Header names match case-insensitively; unknown columns are ignored and every column but
/// `name` may be missing. Checking values against the household is the domain's job.
public enum ItemsCSVReader {
    /// Far above a household's items (5,000 rows are about 600 KB), far below what would hurt the server.
    public static let maxBytes = 4 * 1024 * 1024
    /// Rows are checked and written in one transaction: a bound keeps that short (a file of tiny
    /// lines could hold a million within `maxBytes`).
    public static let maxRows = 10_000

    public static func read(_ data: Data, vocabulary: ItemsCSVVocabulary, timeZone: TimeZone) -> Result<[ImportRow], ItemsCSVFileProblem> {
        guard data.count <= maxBytes else { return .failure(.tooLarge) }
        switch CSVText.decode(data) {
        case .failure(let problem): return .failure(problem)
        case .success(let text): return rows(text, vocabulary: vocabulary, timeZone: timeZone)
        }
    }

    static func rows(_ text: String, vocabulary: ItemsCSVVocabulary, timeZone: TimeZone) -> Result<[ImportRow], ItemsCSVFileProblem> {
        guard let reader = try? CSVReader(string: text, hasHeaderRow: false) else { return .failure(.notCSV) }
        var line = 1
        var header: [String]?
        var rows: [ImportRow] = []
        while let record = reader.next() {
            let startLine = line
            line += 1 + record.reduce(0) { $0 + lineBreaks(in: $1) }
            // Blank lines (often at the end of a file) are no rows.
            if record.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard let names = header else {
                header = record.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
                continue
            }
            guard rows.count < maxRows else { return .failure(.tooManyRows) }
            var row = ImportRow(line: startLine)
            var seen: Set<String> = []
            for (index, name) in names.enumerated() where seen.insert(name).inserted {
                let cell = index < record.count ? unneutralised(record[index]) : ""
                switch name {
                case "id": row.id = cell.trimmingCharacters(in: .whitespaces)
                case "folder": row.folder = cell.trimmingCharacters(in: .whitespaces)
                default:
                    // Columns that become item fields; the rest (`created_at`, `updated_at`, unknown ones) only people read.
                    guard let field = ItemField(rawValue: name), field.hasCSVColumn else { continue }
                    row.fields[name] = field.formText(fromCSV: cell, vocabulary: vocabulary, timeZone: timeZone)
                }
            }
            rows.append(row)
        }
        if reader.error != nil { return .failure(.notCSV) }
        guard let header else { return .failure(.empty) }
        guard header.contains("name") else { return .failure(.noNameColumn) }
        return .success(rows)
    }

    /// Line breaks inside a quoted cell (CRLF counts once), so each row knows the line it starts on.
    static func lineBreaks(in cell: String) -> Int {
        var count = 0
        var previous: Unicode.Scalar?
        for scalar in cell.unicodeScalars {
            if scalar == "\n", previous != "\r" { count += 1 } else if scalar == "\r" { count += 1 }
            previous = scalar
        }
        return count
    }

    /// The export puts an apostrophe before a cell a spreadsheet would run as a formula
    /// (`SpreadsheetCSV.formulaStarts`); the cell's value is what follows.
    static func unneutralised(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.unicodeScalars.dropFirst().first, SpreadsheetCSV.formulaStarts.contains(second) else {
            return cell
        }
        return String(cell.dropFirst())
    }

    /// A code as written, in any case, or a label in any language; anything else unchanged, so
    /// the editor's check reports it.
    static func code(_ cell: String, _ codes: [String], _ labels: [String: String]) -> String {
        let text = cell.trimmingCharacters(in: .whitespaces)
        if codes.contains(text) { return text }
        let folded = text.lowercased()
        if let code = codes.first(where: { $0.lowercased() == folded }) { return code }
        return labels[folded] ?? labels[text.precomposedStringWithCompatibilityMapping.lowercased()] ?? text
    }

    /// 1/0 as the export writes it, and the words a person might type instead.
    static func urgent(_ cell: String) -> String {
        switch cell.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes", "y", "x", "はい", "○", "◯": return "1"
        case "0", "false", "no", "n", "", "いいえ": return "0"
        case let other: return other
        }
    }

    /// The item form's "YYYY-MM-DDTHH:MM" in the household's time zone. Also read: the same with a
    /// space (spreadsheets), and an instant with a zone ("2026-11-22T05:10:00Z").
    static func localDateTime(_ cell: String, timeZone: TimeZone) -> String {
        let text = cell.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            formatter.formatOptions = options
            if let instant = formatter.date(from: text) { return LocalDateTime.text(instant, in: timeZone) }
        }
        if text.count >= 16, text[text.index(text.startIndex, offsetBy: 10)] == " " {
            return String(text.prefix(10)) + "T" + String(text.dropFirst(11))
        }
        return text
    }
}
