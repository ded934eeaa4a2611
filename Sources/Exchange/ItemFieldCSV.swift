import Foundation
import Inventory

/// How each item field travels in the items CSV, which the export writes and the CSV import
/// reads: a new `ItemField` fails to compile here until it says whether it has a column, what the
/// export writes in it and what a cell becomes on the form.
extension ItemField {
    /// The fields the CSV has a column for, in the form's order (between `id, folder` and the
    /// two timestamps).
    static let csvFields = formOrder.filter(\.hasCSVColumn)

    /// Whether the CSV has a column for the field: the picture travels only in `household.json`,
    /// beside its photo's files.
    var hasCSVColumn: Bool {
        switch self {
        case .name, .quantity, .unit, .kind, .status, .due, .remindAt, .urgent, .barcode, .note: true
        case .picture: false
        }
    }

    /// The export's cell for the field: codes as stored, a decimal a spreadsheet reads, urgency as
    /// 1 or 0, the reminder as the stored instant.
    func csvCell(_ item: HouseholdDocument.ItemPart) -> String {
        switch self {
        case .name: item.name
        case .quantity: SpreadsheetCSV.decimal(item.quantity)
        case .unit: item.unit.rawValue
        case .kind: item.kind.rawValue
        case .status: item.status?.rawValue ?? ""
        case .due: item.due?.description ?? ""
        case .remindAt: item.remindAt?.description ?? ""
        case .urgent: item.urgent ? "1" : "0"
        case .barcode: item.barcode ?? ""
        case .picture: ""
        case .note: item.note
        }
    }

    /// What a CSV cell becomes on the item form: a code for a label in any language, the words a
    /// person might type for urgency, the reminder in the household's time zone; other cells as
    /// they are (the editor's check reports what is wrong).
    func formText(fromCSV cell: String, vocabulary: ItemsCSVVocabulary, timeZone: TimeZone) -> String {
        switch self {
        case .unit: ItemsCSVReader.code(cell, ItemUnit.allCases.map(\.rawValue), vocabulary.units)
        case .kind: ItemsCSVReader.code(cell, ItemKind.allCases.map(\.rawValue), vocabulary.kinds)
        case .status: ItemsCSVReader.code(cell, ItemStatus.allCases.map(\.rawValue), vocabulary.statuses)
        case .urgent: ItemsCSVReader.urgent(cell)
        case .remindAt: ItemsCSVReader.localDateTime(cell, timeZone: timeZone)
        case .name, .quantity, .due, .barcode, .picture, .note: cell
        }
    }
}
