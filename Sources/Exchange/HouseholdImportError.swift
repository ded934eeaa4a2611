import Foundation

/// Why an export was refused, in one sentence for the person who runs the server. Nothing is
/// created when any of these is thrown.
public enum HouseholdImportError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case notAZip(String)
    case unsafePath(String)
    case tooLarge(String)
    case missingDocument
    case notAnExport
    case newerVersion(Int)
    case unknownVersion(Int)
    case damagedDocument(String)
    case inconsistent(String)
    case badPhoto(String)
    case refusedByDatabase(String)

    public var description: String {
        switch self {
        case .unreadable(let path): "Cannot read \(path); check the path and its permissions."
        case .notAZip(let path): "\(path) is not a ZIP file; give the file Zaiko's Settings › Export downloaded."
        case .unsafePath(let path): "The export holds a file with an unsafe path (\(path)), so it was refused."
        case .tooLarge(let what): "The export is too large to be a household (\(what)), so it was refused."
        case .missingDocument: "The ZIP has no household.json; it is not a Zaiko household export."
        case .notAnExport: "household.json is not a Zaiko household export."
        case .newerVersion(let version):
            "The export has format version \(version), made by a newer Zaiko; upgrade this server to import it."
        case .unknownVersion(let version): "The export has an unknown format version (\(version))."
        case .damagedDocument(let detail): "household.json is damaged or incomplete (\(detail))."
        case .inconsistent(let detail): "The export does not hold together: \(detail)."
        case .badPhoto(let path): "The photo \(path) in the export is missing or not an image of its stated format."
        case .refusedByDatabase(let detail): "The export's data does not fit Zaiko's rules (\(detail)); nothing was imported."
        }
    }
}
