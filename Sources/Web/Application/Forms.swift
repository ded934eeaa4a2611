import Inventory

/// One form control, already labelled and localised; `partials/field` renders it.
struct FormField: Sendable {
    enum Kind: Sendable { case text, password, select, checkbox, hidden }

    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    let name: String
    let label: String
    var kind: Kind = .text
    /// What the field holds; a password's is never sent back to the browser (`value`).
    private var entered: String
    var error: String?
    var hint: String?
    var autocomplete: String?
    var required = false
    var inputType: String?
    var options: [Option] = []
    var checked = false
    var maxLength: Int?
    var inputMode: String?
    var autofocus = false
    /// What the browser fills in by script on a fresh form (`data-fill`: "time-zone").
    var fill: String?
    /// The id of a `<datalist>` whose options the browser suggests as the person types.
    var list: String?
    /// Buttons that fill the field with a value at a tap ("+3 days" on a due date), shown by script.
    var shortcuts: [Shortcut] = []
    /// What the buttons are for, for screen readers.
    var shortcutsLabel: String?

    /// A button beside a field that puts `value` into it.
    struct Shortcut: Sendable {
        let label: String
        let value: String
    }

    init(
        name: String, label: String, kind: Kind = .text, value: String = "", error: String? = nil, hint: String? = nil,
        autocomplete: String? = nil, required: Bool = false, inputType: String? = nil, options: [Option] = [], checked: Bool = false,
        maxLength: Int? = nil, inputMode: String? = nil, autofocus: Bool = false
    ) {
        self.name = name
        self.label = label
        self.kind = kind
        self.entered = value
        self.error = error
        self.hint = hint
        self.autocomplete = autocomplete
        self.required = required
        self.inputType = inputType
        self.options = options
        self.checked = checked
        self.maxLength = maxLength
        self.inputMode = inputMode
        self.autofocus = autofocus
    }

    /// The value the page shows: passwords are never sent back to the browser.
    var value: String {
        get { kind == .password ? "" : entered }
        set { entered = newValue }
    }
    var type: String { inputType ?? (kind == .password ? "password" : "text") }
    var isSelect: Bool { kind == .select }
    var isCheckbox: Bool { kind == .checkbox }
    var isHidden: Bool { kind == .hidden }
    var isInput: Bool { kind == .text || kind == .password }
    var hasShortcuts: Bool { !shortcuts.isEmpty }

    /// A due date field, with the shortcuts "+3 days", "+1 week" and "+1 month" from `today`.
    static func due(name: String, label: String, value: String, error: String?, hint: String? = nil, today: CalendarDay, _ t: Catalog) -> FormField {
        var field = FormField(name: name, label: label, value: value, error: error, hint: hint, inputType: "date")
        field.shortcutsLabel = t[.dueShortcuts]
        field.shortcuts = [
            Shortcut(label: t[.dueShortcutThreeDays], value: today.adding(days: 3).description),
            Shortcut(label: t[.dueShortcutWeek], value: today.adding(days: 7).description),
            Shortcut(label: t[.dueShortcutMonth], value: today.adding(months: 1).description),
        ]
        return field
    }

    static func hidden(_ name: String, _ value: String) -> FormField {
        FormField(name: name, label: "", kind: .hidden, value: value)
    }

    /// The ids of the hint and error, for `aria-describedby`; nil when there are none.
    var describedBy: String? {
        let ids = [hint.map { _ in "f-\(name)-hint" }, error.map { _ in "f-\(name)-error" }].compactMap { $0 }
        return ids.isEmpty ? nil : ids.joined(separator: " ")
    }
}

/// A page that is one form (setup, login, joining, password reset; `Templates/form.mustache`, compiled).
struct FormPage: CompiledPage {
    let heading: String
    var intro: String?
    /// A message about the whole form (wrong password, throttled, expired link).
    var formError: String?
    let action: String
    let submitLabel: String
    let fields: [FormField]
    var footerLink: (href: String, label: String)?

    func title(_ t: Catalog) -> String { heading }

    var footerHref: String? { footerLink?.href }
    var footerLabel: String? { footerLink?.label }
}

extension Catalog {
    /// The localised messages for the fields a validation error names.
    func messages(_ error: InventoryError) -> [String: String] {
        guard case .validation(let fields) = error else { return [:] }
        return messages(fields)
    }

    /// Language choices for a member: follow the browser, or one of the catalogs, each named in its own words.
    func languageOptions(selected: String?, among languages: [Catalog]) -> [FormField.Option] {
        [FormField.Option(value: "", label: self[.languageBrowser], selected: selected == nil)]
            + languages.map { FormField.Option(value: $0.code, label: $0.languageName, selected: selected == $0.code) }
    }

    func roleOptions(selected: Role?) -> [FormField.Option] {
        Role.allCases.map { FormField.Option(value: $0.rawValue, label: self[.role, $0.rawValue], selected: selected == $0) }
    }
}
