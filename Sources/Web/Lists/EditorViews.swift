import Inventory

/// One draft of the editor: its fields named `d<index>.<field>`, with their errors. Name,
/// picture, quantity and due date show at once; the rarer fields sit under "More", open when
/// one of them holds an error or something other than its default. Both kinds' own fields are
/// there (stock: due date, reminder, status; shopping: urgent): the kind not in use is disabled
/// and hidden, and the folder select shows it at once with JavaScript.
struct DraftView: Sendable {
    let index: Int
    let number: String
    var nameField: FormField
    let quantity: FormField
    let unit: FormField
    let kind: FormField
    let due: FormField
    /// Reminder and status: stock only.
    let stockMore: [FormField]
    /// Urgent: shopping only.
    let shoppingMore: [FormField]
    let barcode: FormField
    let note: String
    let noteError: String?
    let hasError: Bool
    let single: Bool
    /// The kind whose fields the form sends (the folder's, unless what was typed belongs to the other).
    let stockFields: Bool
    let moreOpen: Bool
    let picture: PicturePicker

    /// What shows at once; every other field is under "More".
    static let shownAtOnce: Set<ItemField> = [.name, .picture, .quantity, .due]
    static let moreFields = ItemField.formOrder.filter { !shownAtOnce.contains($0) }

    init(
        index: Int, input: ItemInput, fieldsKind: FolderKind, errors: [String: String], today: CalendarDay, t: Catalog, urls: StaticURLs,
        single: Bool, focus: String? = nil
    ) {
        self.index = index
        self.single = single
        stockFields = fieldsKind == .stock
        picture = PicturePicker(index: index, input: input, error: errors["\(index).picture"], t: t, urls: urls)
        number = t.format(.draftNumber, ["number": "\(index + 1)"])
        func name(_ field: String) -> String { "d\(index).\(field)" }
        func error(_ field: String) -> String? { errors["\(index).\(field)"] }
        hasError = errors.keys.contains { $0.hasPrefix("\(index).") }
        nameField = FormField(
            name: name("name"), label: t[.fieldItemName], value: input.name, error: error("name"), autocomplete: "off", required: true,
            maxLength: 100, autofocus: focus == "f-\(name("name"))")
        nameField.list = EditorPage.knownNamesList
        quantity = FormField(
            name: name("quantity"), label: t[.fieldQuantity], value: input.quantity, error: error("quantity"), inputType: "text", maxLength: 12)
        unit = FormField(
            name: name("unit"), label: t[.fieldUnit], kind: .select, error: error("unit"),
            options: ItemUnit.allCases.map { .init(value: $0.rawValue, label: t[.unit, $0], selected: $0.rawValue == input.unit) })
        kind = FormField(
            name: name("kind"), label: t[.fieldKind], kind: .select, error: error("kind"),
            options: ItemKind.allCases.map { .init(value: $0.rawValue, label: t[.kind, $0], selected: $0.rawValue == input.kind) })
        due = FormField.due(name: name("due"), label: t[.fieldDue], value: input.due, error: error("due"), today: today, t)
        stockMore = [
            FormField(
                name: name("remind_at"), label: t[.fieldRemindAt], value: input.remindAt, error: error("remind_at"),
                hint: t[.remindHint], inputType: "datetime-local"),
            FormField(
                name: name("status"), label: t[.fieldStatus], kind: .select, error: error("status"),
                options: ItemStatus.allCases.map { .init(value: $0.rawValue, label: t[.status, $0], selected: $0.rawValue == input.status) }),
        ]
        shoppingMore = [FormField(name: name("urgent"), label: t[.fieldUrgent], kind: .checkbox, checked: input.urgent)]
        let barcodeFocused = focus == "f-\(name("barcode"))"
        barcode = FormField(
            name: name("barcode"), label: t[.fieldBarcode], value: input.barcode, error: error("barcode"),
            autocomplete: "off", inputType: "text", maxLength: 14, inputMode: "numeric", autofocus: barcodeFocused)
        note = input.note
        noteError = error("note")
        // Something to see or fix under "More" opens it: a hidden error or value would be missed.
        let changed = Self.moreFields.contains { $0.fits(fieldsKind) && $0.isSet(in: input) }
        moreOpen = single || barcodeFocused || changed || Self.moreFields.contains { error($0.rawValue) != nil }
    }
}

/// Said beside the folder select when what was typed does not fit the chosen folder's kind:
/// which drafts would lose which fields, and the choice to save without them.
struct UnfitNotice: Sendable {
    let message: String
    let drafts: [String]
}

/// A draft's picture: the current one, a photo to take or upload, or an illustration.
struct PicturePicker: Sendable {
    struct Option: Sendable {
        let value: String
        let label: String
        let src: String?
        let checked: Bool
        /// An illustration's kind, which choosing it sets when the draft has none yet.
        var kind: String? = nil
    }

    /// Field names: "d0.picture" in the item editor, "picture" on the product form.
    let prefix: String
    let idPrefix: String
    let preview: String
    let hasPicture: Bool
    let error: String?
    let options: [Option]
    /// Opened when an illustration is the choice, so the person sees it.
    let illustrationChosen: Bool

    init(index: Int, input: ItemInput, error: String?, t: Catalog, urls: StaticURLs, fieldPrefix: String? = nil) {
        prefix = fieldPrefix ?? "d\(index)."
        idPrefix = fieldPrefix ?? "d\(index)-"
        self.error = error
        let current = Picture(formValue: input.picture)
        preview = urls.picture(current, size: .small, kind: ItemKind(rawValue: input.kind))
        hasPicture = current != nil
        illustrationChosen = if case .illustration = current { true } else { false }
        var options = [Option(value: "", label: t[.pictureNone], src: nil, checked: current == nil)]
        if case .photo = current {
            options.append(Option(value: input.picture, label: t[.pictureCurrentPhoto], src: preview, checked: true))
        }
        options += Illustrations.all.map { entry in
            Option(
                value: "illustration:\(entry.slug)", label: t[.illustration, entry.slug], src: urls.illustration(entry.slug),
                checked: current == .illustration(entry.slug), kind: entry.kind)
        }
        self.options = options
    }
}

/// What a scan or a barcode look-up leaves for the page to say, and where the cursor goes next.
struct EditorState: Sendable {
    /// The server's disk refused the save: shown as the form's banner, everything typed kept.
    var storageError: String? = nil
    var scanError: String? = nil
    var scanNotice: String? = nil
    /// The id of the field that gets `autofocus`.
    var focus: String? = nil
    /// Typed fields the chosen folder would not keep: the form asks before dropping them.
    var unfit: UnfitNotice? = nil
}

/// Adding items (several drafts at once) or editing one (`Templates/editor.mustache`, compiled).
struct EditorPage: CompiledPage {
    let heading: String
    let action: String
    let isNew: Bool
    let version: Int?
    /// What the item form was opened with (`EditBase`), as hidden fields.
    var base: [FormField] = []
    let stockFolders: [Choice]
    let shoppingFolders: [Choice]
    /// What the JavaScript says when a folder change hides typed fields ("{folder}" filled in).
    let unfitShoppingText: String
    let unfitStockText: String
    let drafts: [DraftView]
    let canAddDraft: Bool
    let summary: String?
    var summaryLink: String? = nil
    let returnTo: String
    let cancel: String
    var state = EditorState()
    var maxBodyBytes = 20 * 1024 * 1024
    /// The household's names, suggested in every draft's name field (`<datalist>`); picking one
    /// fills what its latest item had (by script).
    var knownNames: [KnownNameOption] = []
    static let knownNamesList = "known-names"

    /// A suggested name, with what picking it fills in.
    struct KnownNameOption: Sendable {
        let name: String
        let unit: String
        let kind: String
        /// An illustration's form value ("illustration:milk"); photos are not offered (each item
        /// keeps its own).
        let illustration: String?
        let preview: String?
        let due: String?

        init(_ known: KnownName, urls: StaticURLs) {
            name = known.name
            unit = known.unit.rawValue
            kind = known.kind.rawValue
            if case .illustration(let slug) = known.picture {
                illustration = known.picture?.formValue
                preview = urls.illustration(slug)
            } else {
                (illustration, preview) = (nil, nil)
            }
            due = known.due?.description
        }
    }

    func title(_ t: Catalog) -> String { heading }

    var hasShoppingFolders: Bool { !shoppingFolders.isEmpty }
    var hasStockFolders: Bool { !stockFolders.isEmpty }
    var scanError: String? { state.scanError }
    var scanNotice: String? { state.scanNotice }
    var unfit: UnfitNotice? { state.unfit }
}

/// Someone else saved the item while this member edited it (`Templates/conflict.mustache`, compiled).
struct ConflictPage: CompiledPage {
    /// A field both changed: one radio per side, named as the form field so the choice is the value sent.
    struct Clash: Sendable {
        struct Side: Sendable {
            let value: String
            let shown: String
        }
        let label: String
        let name: String
        let id: String
        let theirs: Side
        let mine: Side
    }

    /// A field already merged: its value and, when one side changed it, whose change it is.
    struct Row: Sendable {
        let label: String
        let value: String
        let source: String?
    }

    let heading: String
    let itemId: Item.ID
    let message: String
    let events: [ItemPage.Event]
    let clashes: [Clash]
    let rows: [Row]
    let hidden: [FormField]

    func title(_ t: Catalog) -> String { heading }
}

/// One item: picture, facts, history (`Templates/item.mustache`, compiled).
struct ItemPage: CompiledPage {
    struct Fact: Sendable {
        let label: String
        let value: String
    }

    struct Event: Sendable {
        let what: String
        let detail: String?
        let who: String
        let when: String
        /// A cook's line while the cook can still be undone (cookpages).
        var undoCook: CookUndoButton? = nil
    }

    let name: String
    let id: Item.ID
    let picture: String
    let hasPicture: Bool
    let pictureAlt: String
    let dueState: String
    let facts: [Fact]
    let history: [Event]
    let folderId: Folder.ID
    let canWrite: Bool
    let photoError: String?
    let saved: String?
    /// "Recipes with this" (stock items): /recipes?ingredient=<name>.
    var recipesLink: String? = nil
    /// "Keep in stock" (writers): the item's product's keep rule.
    var keep: KeepSection? = nil

    func title(_ t: Catalog) -> String { name }
}
