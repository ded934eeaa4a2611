/// Catalog keys made at run time from a code of the domain: `kind_` + a kind ("kind_dairy_eggs"),
/// `error_` + a status + `_title`. A family is looked up by code (`t[.kind, item.kind]`);
/// `TextFamilyTests` checks that every code the domain has is a key of every catalog, which is
/// what the build checks for a `TextKey`.
struct TextFamily: Sendable {
    let prefix: String
    let suffix: String

    init(_ prefix: String, suffix: String = "") {
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The key's name for `code`.
    func name(_ code: some CustomStringConvertible) -> String { prefix + code.description + suffix }

    /// The key for `code`, nil when the catalogs have none.
    func key(_ code: some CustomStringConvertible) -> TextKey? { TextKey.named(name(code)) }

    /// An item's kind (`ItemKind`).
    static let kind = TextFamily("kind_")
    /// An item's status (`ItemStatus`).
    static let status = TextFamily("status_")
    /// An item's unit (`ItemUnit`), and a recipe's units that are not cooking measures.
    static let unit = TextFamily("unit_")
    /// A cooking measure in the recipe editor's unit picker (`IngredientUnit.isCookingMeasure`).
    static let recipeEditorUnit = TextFamily("recipe_editor_unit_")
    /// An amount in a recipe's unit, counted (`IngredientUnit`).
    static let recipeQuantity = TextFamily("recipes_qty_")
    /// How soon an item is due, where a row says so (`DueState`: expired, today, soon).
    static let due = TextFamily("due_")
    /// A form field's label, by field name (`field_item_name` for the item's `name`).
    static let field = TextFamily("field_")
    /// What an item's history event did (`ItemEvent.kind`).
    static let history = TextFamily("history_")
    /// A sample picture's name (`Illustrations.all`).
    static let illustration = TextFamily("illustration_")
    /// A folder icon's name (`Folders.icons`).
    static let icon = TextFamily("icon_")
    /// A meal of the day (`MealSlot`).
    static let planSlot = TextFamily("plan_slot_")
    /// A push service (`PushKind`).
    static let pushKind = TextFamily("push_kind_")
    /// Why a push message did not go out, but for an HTTP status (`PushFailure.stored`).
    static let pushError = TextFamily("push_error_")
    /// A unit's counted phrase, "2 bottles" (`ItemUnit`; read by `Catalog.quantity`).
    static let quantity = TextFamily("qty_")
    /// An API problem's title and sentence (`APIProblem.Kind`).
    static let apiProblem = TextFamily("api_problem_")
    static let apiProblemDetail = TextFamily("api_problem_", suffix: "_detail")
    /// An API operation's summary on /api (`APIOperation.id`; en.json's are the document's own words).
    static let apiOperation = TextFamily("api_operation_")
    /// What a personal access token may do (`TokenScope`).
    static let tokenScope = TextFamily("tokens_scope_")
    /// A member's role (`Role`).
    static let role = TextFamily("role_")
    /// The notice after a settings form is saved, by what was saved (`?saved=profile`).
    static let saved = TextFamily("saved_")
    /// A platform's name on the /tls page (`TLSPage.stepCounts`), and its numbered steps (`ios_1`).
    static let tlsPlatform = TextFamily("tls_")
    /// Why the last automatic backup failed (`BackupFailureReason`).
    static let backupFailure = TextFamily("backup_failure_")
    /// Why a draft's fields do not fit the folder it moves to, by the folder's kind (`FolderKind`).
    static let editorUnfit = TextFamily("editor_unfit_")
    /// An error page's heading and sentence, by status.
    static let errorTitle = TextFamily("error_", suffix: "_title")
    static let errorMessage = TextFamily("error_", suffix: "_message")
    /// The error page for a storage failure, by its message key (`StorageFailure.messageKey`).
    static let storageTitle = TextFamily("", suffix: "_title")
    static let storageMessage = TextFamily("", suffix: "_message")
}

extension Catalog {
    /// `family`'s text for `code` with `{name}` placeholders filled in.
    func format(_ family: TextFamily, _ code: some CustomStringConvertible, _ values: [String: String]) -> String {
        Self.fill(self[named: family.name(code)], values)
    }
}
