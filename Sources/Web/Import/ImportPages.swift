import Foundation
import Inventory
import Mustache

/// The import page: the form (file and default folder) and, after an upload, its preview.
struct ImportPage: PageView {
    static let template = "import"

    /// Folders by id with the reader's names, in the household's order.
    let folderList: [(id: Int64, name: String)]
    let folderOptions: [FormField.Option]
    var fileError: String?
    var folderError: String?
    var preview: ImportPreview?

    init(_ t: Catalog, folders: [Folder], chosen: Int64?) {
        folderList = folders.map { ($0.id!, displayName($0, t)) }
        let selected = chosen ?? folders.first { $0.kind == .stock }?.id
        folderOptions = folderList.map { FormField.Option(value: String($0.id), label: $0.name, selected: $0.id == selected) }
    }

    func title(_ t: Catalog) -> String { t["import_heading"] }

    func child(named key: String) -> Any? {
        switch key {
        case "folderOptions": return folderOptions
        case "fileError": return fileError
        case "folderError": return folderError
        case "preview": return preview
        default: return nil
        }
    }
}

/// What an upload would do: counts, the rows (the first `shownRows`), every problem.
struct ImportPreview: MustacheParent, Sendable {
    static let shownRows = 100
    static let shownProblems = 200

    struct Row: MustacheParent, Sendable {
        let lineLabel: String
        let name: String
        let folder: String
        let amount: String
        let action: String
        let isUpdate: Bool
        func child(named key: String) -> Any? {
            switch key {
            case "lineLabel": return lineLabel
            case "name": return name
            case "folder": return folder
            case "amount": return amount
            case "action": return action
            case "isUpdate": return isUpdate
            default: return nil
            }
        }
    }

    struct Problem: MustacheParent, Sendable {
        let place: String
        let message: String
        let value: String?
        func child(named key: String) -> Any? {
            switch key {
            case "place": return place
            case "message": return message
            case "value": return value
            default: return nil
            }
        }
    }

    let summary: String
    let rows: [Row]
    let moreRows: String?
    let problems: [Problem]
    let moreProblems: String?
    let problemCount: String
    /// Present when the upload may be confirmed (no problems).
    let token: String?

    init(_ plan: ImportPlan, folders: [(id: Int64, name: String)], token: String?, _ t: Catalog) {
        summary = t.format("import_summary", ["new": String(plan.newCount), "updated": String(plan.updatedCount)])
        let names = Dictionary(folders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        self.rows = plan.rows.prefix(Self.shownRows).map {
            Row(
                lineLabel: t.format("import_line", ["line": String($0.line)]), name: $0.values.name, folder: names[$0.folderId] ?? "",
                amount: t.quantity($0.values.quantity, unit: $0.values.unit),
                action: t[$0.itemId == nil ? "import_action_new" : "import_action_update"], isUpdate: $0.itemId != nil)
        }
        moreRows = plan.rows.count > Self.shownRows ? t.count("import_more_rows", plan.rows.count - Self.shownRows) : nil
        problems = plan.problems.prefix(Self.shownProblems).map {
            Problem(
                place: t.format("import_problem_place", ["line": String($0.line), "column": $0.column]),
                message: t.format($0.key, ["value": $0.value]), value: $0.value.isEmpty || $0.key == "import_folder_unknown" ? nil : $0.value)
        }
        moreProblems = plan.problems.count > Self.shownProblems ? t.count("import_more_problems", plan.problems.count - Self.shownProblems) : nil
        problemCount = t.count("import_problems_heading", plan.problems.count)
        self.token = token
    }

    func child(named key: String) -> Any? {
        switch key {
        case "summary": return summary
        case "rows": return rows
        case "hasRows": return !rows.isEmpty
        case "moreRows": return moreRows
        case "problems": return problems
        case "hasProblems": return !problems.isEmpty
        case "moreProblems": return moreProblems
        case "problemCount": return problemCount
        case "token": return token
        default: return nil
        }
    }
}
