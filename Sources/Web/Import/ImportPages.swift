import Foundation
import Inventory

/// The import page: the form (file and default folder) and, after an upload, its preview.
struct ImportPage: CompiledPage {
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

    func title(_ t: Catalog) -> String { t[.importHeading] }
}

/// What an upload would do: counts, the rows (the first `shownRows`), every problem.
struct ImportPreview: Sendable {
    static let shownRows = 100
    static let shownProblems = 200

    struct Row: Sendable {
        let lineLabel: String
        let name: String
        let folder: String
        let amount: String
        let action: String
        let isUpdate: Bool
    }

    struct Problem: Sendable {
        let place: String
        let message: String
        let value: String?
    }

    let summary: String
    let rows: [Row]
    let moreRows: String?
    let problems: [Problem]
    let moreProblems: String?
    let problemCount: String
    /// Present when the upload may be confirmed (no problems).
    let token: String?

    var hasRows: Bool { !rows.isEmpty }
    var hasProblems: Bool { !problems.isEmpty }

    init(_ plan: ImportPlan, folders: [(id: Int64, name: String)], token: String?, _ t: Catalog) {
        summary = t.format(.importSummary, ["new": String(plan.newCount), "updated": String(plan.updatedCount)])
        let names = Dictionary(folders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        self.rows = plan.rows.prefix(Self.shownRows).map {
            Row(
                lineLabel: t.format(.importLine, ["line": String($0.line)]), name: $0.values.name, folder: names[$0.folderId] ?? "",
                amount: t.quantity($0.values.quantity, unit: $0.values.unit),
                action: t[$0.itemId == nil ? .importActionNew : .importActionUpdate], isUpdate: $0.itemId != nil)
        }
        moreRows = plan.rows.count > Self.shownRows ? t.count(.importMoreRows, plan.rows.count - Self.shownRows) : nil
        problems = plan.problems.prefix(Self.shownProblems).map {
            Problem(
                place: t.format(.importProblemPlace, ["line": String($0.line), "column": $0.column]),
                message: t.format($0.problem.text, ["value": $0.value]), value: $0.value.isEmpty || $0.problem == .importFolderUnknown ? nil : $0.value)
        }
        moreProblems = plan.problems.count > Self.shownProblems ? t.count(.importMoreProblems, plan.problems.count - Self.shownProblems) : nil
        problemCount = t.count(.importProblemsHeading, plan.problems.count)
        self.token = token
    }
}
