import Foundation

/// Why a file cannot be read as an items CSV at all (as opposed to a problem on one line).
public enum ItemsCSVFileProblem: Error, Sendable, Equatable {
    /// No bytes, or nothing but blank lines.
    case empty
    /// Binary data (a spreadsheet, a picture) or quoting that never ends.
    case notCSV
    /// Neither UTF-8 nor Shift_JIS: the person should save it as "CSV UTF-8".
    case unreadableEncoding
    /// The first line has no `name` column.
    case noNameColumn
    /// Larger than `ItemsCSVReader.maxBytes`.
    case tooLarge
    /// More rows than `ItemsCSVReader.maxRows`.
    case tooManyRows
}

/// The text of an uploaded CSV file. Spreadsheets save UTF-8 with or without a byte order mark,
/// Excel in Japan saves Shift_JIS ("CSV (comma delimited)"), and "Unicode text" is UTF-16.
public enum CSVText {
    public static func decode(_ data: Data) -> Result<String, ItemsCSVFileProblem> {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(bytes: bytes.dropFirst(3), encoding: .utf8).map(checked) ?? .failure(.unreadableEncoding)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return String(data: data, encoding: .utf16).map(checked) ?? .failure(.unreadableEncoding)
        }
        // NUL never appears in text in these encodings: an .xlsx (a ZIP) or a picture.
        if bytes.contains(0) { return .failure(.notCSV) }
        if let text = String(bytes: bytes, encoding: .utf8) { return checked(text) }
        if let text = String(data: data, encoding: .shiftJIS), !text.contains("\u{FFFD}") { return checked(text) }
        return .failure(.unreadableEncoding)
    }

    private static func checked(_ text: String) -> Result<String, ItemsCSVFileProblem> {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? .failure(.empty) : .success(text)
    }
}
