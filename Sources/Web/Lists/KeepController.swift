import HTTPServer
import Inventory

/// What to keep in stock of an item's product (its name and unit), from the item's page: at least
/// a minimum, refilled up to an amount in whole packs; under it, the refill goes on the keep list.
struct KeepController {
    let keepRules: KeepRules
    let itemPages: ItemsController

    func register(in router: inout Router<Endpoint>) {
        router.post(Route.Item.pattern.keep, .writer, use: keep)
        router.post(Route.Item.pattern.keepStop, .writer, use: stop)
        router.post(Route.Settings.keep, .owner, use: saveSettings)
    }

    /// The rule saved and checked at once; a mistake comes back beside its field with what was typed.
    func keep(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let form = try context.form(KeepForm.self)
        do {
            try keepRules.keep(
                forItem: id, minimum: form.keepMinimum, refillTo: form.keepRefillTo, pack: form.keepPack, in: member.household, by: member.memberId)
            return .redirect(to: Route.item(id).path + "?saved=keep#keep")
        } catch InventoryError.validation(let problems) {
            let errors = context.locale.messages(problems)
            return renderer.response(try itemPages.detail(context, itemId: id, keep: (form, errors)), context, status: 422)
        }
    }

    /// The product no longer kept: the rule's share of the shopping list goes.
    func stop(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        try keepRules.stopKeeping(forItem: id, in: member.household, by: member.memberId)
        return .redirect(to: Route.item(id).path + "?saved=keep-stopped#keep")
    }

    /// Settings' keeping card; every rule is checked again with the new settings.
    func saveSettings(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(KeepSettingsForm.self)
        do {
            try keepRules.setSettings(
                folderId: form.keepFolder, countsExpired: form.keepCountsExpired, in: member.household, by: member.memberId)
        } catch InventoryError.validation {
            return .redirect(to: Route.Settings.path + "?keep_error=1#keeping")
        }
        return .redirect(to: Route.Settings.path + "?saved=keep#keeping")
    }

    var renderer: Renderer { itemPages.renderer }
}

/// The keep form as typed.
struct KeepForm: Decodable {
    var keepMinimum = ""
    var keepRefillTo = ""
    var keepPack = ""
}

extension KeepForm {
    /// The form of a saved rule.
    init(_ rule: KeepRule) {
        self.init(keepMinimum: Quantity.text(rule.minimum), keepRefillTo: Quantity.text(rule.refillTo), keepPack: Quantity.text(rule.pack))
    }
}

/// Settings' keeping card: where refills go ("" or absent: the first shopping list), and whether
/// expired items count as stock.
struct KeepSettingsForm: Decodable {
    var keepFolder: Folder.ID?
    var keepCountsExpired = false
}

/// Settings' keeping card.
struct KeepSettingsSection: Sendable {
    let lists: [Choice]
    let countsExpired: Bool
    let saved: String?
    let error: String?

    init(_ settings: KeepSettings, shoppingLists: [Folder], query: Parameters, t: Catalog) {
        let chosen = shoppingLists.first { $0.id == settings.folderId }
        lists =
            [.init(value: "", label: t[.keepSettingsFirstList], selected: chosen == nil)]
            + shoppingLists.map { .init(value: "\($0.id)", label: displayName($0, t), selected: $0.id == chosen?.id) }
        countsExpired = settings.countsExpired
        saved = query["saved"] == "keep" ? t[.keepSettingsSaved] : nil
        error = query["keep_error"] != nil ? t[.folderNotShopping] : nil
    }
}

/// The item page's "Keep in stock" card.
struct KeepSection: Sendable {
    let fields: [FormField]
    /// What is in stock against the rule ("1 bottle in stock: under the minimum"); nil without a rule.
    let summary: String?
    let below: Bool
    let kept: Bool
    /// Open when there is a rule or a refused save; a closed line otherwise, so the page stays short.
    let open: Bool
    let action: String
    let stopAction: String

    /// The card for `item`'s product: its rule (or `typed` with its mistakes, when a save was refused).
    init(item: Item, rule: KeepRule?, typed: (form: KeepForm, errors: [String: String])?, t: Catalog) {
        let form = typed?.form ?? rule.map(KeepForm.init) ?? KeepForm()
        let errors = typed?.errors ?? [:]
        let unit = t[.unit, item.unit]
        func amount(_ name: String, _ label: TextKey, _ value: String, hint: String? = nil) -> FormField {
            FormField(
                name: name, label: t.format(label, ["unit": unit]), value: value, error: errors[name], hint: hint, autocomplete: "off", maxLength: 20,
                inputMode: "decimal")
        }
        fields = [
            amount("keep_minimum", .keepMinimum, form.keepMinimum),
            amount("keep_refill_to", .keepRefillTo, form.keepRefillTo, hint: t[.keepRefillToHint]),
            amount("keep_pack", .keepPack, form.keepPack, hint: t[.keepPackHint]),
        ]
        summary = rule.map { rule in
            t.format(
                rule.isBelowMinimum ? .keepSummaryBelow : .keepSummary,
                ["stock": t.quantity(rule.inStock, unit: rule.unit), "minimum": t.quantity(rule.minimum, unit: rule.unit)])
        }
        below = rule?.isBelowMinimum ?? false
        kept = rule != nil
        open = rule != nil || !errors.isEmpty
        // The answer opens at the card: a refused amount is seen beside its field, not below the fold.
        action = Route.item(item.id).keep + "#keep"
        stopAction = Route.item(item.id).keepStop
    }
}
