import Foundation
import HTTPServer
import Inventory

/// The recipe editor (new, edit, an import's draft), deleting a recipe to the trash and Undo.
struct RecipeEditorController {
    let recipes: Recipes
    let items: Items
    let pictures: PictureUploads
    let renderer: Renderer
    let maxBodyBytes: Int
    /// The import's drafts: `/recipes/new?draft=<token>` opens one.
    let drafts: (@Sendable (_ token: String, _ member: SignedIn) -> RecipeInput?)?

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Recipes.new, .writer, use: newForm)
        router.post(Route.Recipes.restore, .writer, use: restore)
        router.post(Route.Recipes.path, .writer, uploads: true, use: create)
        router.get(Route.Recipe.pattern.edit, .writer, use: editForm)
        router.post(Route.Recipe.pattern.delete, .writer, use: trash)
        router.post(Route.Recipe.pattern.path, .writer, uploads: true, use: update)
    }

    /// The editor for a new recipe: empty, or an import's draft (`?draft=`).
    func newForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let draft = context.request.query["draft"].flatMap { token in drafts?(token, member) }
        var input = draft ?? RecipeInput()
        input.ingredients = RecipeForm.rows(input.ingredients, spare: draft == nil ? RecipeForm.blankRows : RecipeForm.spareRows)
        return renderer.response(try page(context, input: input, id: nil, storedName: nil, errors: [:]), context)
    }

    /// Undo after a recipe went to the trash (or restore from elsewhere): back to the recipe when it is one.
    func restore(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let ids = try context.form(RecipeIdsForm.self).values
        try recipes.restore(ids, in: member.household, by: member.memberId)
        let fallback = ids.count == 1 ? Route.recipe(ids[0]).path + "?restored=1" : Route.Recipes.path
        return .redirect(to: context.returnPath(fallback: fallback))
    }

    func create(_ context: RequestContext) throws -> Response {
        try save(context, id: nil)
    }

    /// The editor on a stored recipe.
    func editForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Recipe.ID = try context.id()
        var input = try recipes.input(id, in: member.household)
        input.ingredients = RecipeForm.rows(input.ingredients, spare: RecipeForm.spareRows)
        return renderer.response(try page(context, input: input, id: id, storedName: input.name, errors: [:]), context)
    }

    /// The recipe to the trash; the list says so, with Undo.
    func trash(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Recipe.ID = try context.id()
        try recipes.trash(id, in: member.household, by: member.memberId)
        return .redirect(to: Route.Recipes.path + "?trashed=\(id)")
    }

    func update(_ context: RequestContext) throws -> Response {
        try save(context, id: try context.id())
    }

    /// The form sent: "More rows" shows it again with five more; anything else saves. A photo sent
    /// is stored whatever the action, so the form shown again keeps it.
    func save(_ context: RequestContext, id: Recipe.ID?) throws -> Response {
        let member = try context.signedIn
        // Someone else's (or a trashed) recipe is not there to change: 404 before anything is stored.
        let stored = try id.map { try recipes.recipe($0, in: member.household) }
        let form = try context.form(RecipeEditorForm.self)
        var input = RecipeForm.input(form, fields: context.request.form)
        var errors: [String: TextKey] = [:]
        do throws(PictureUploads.Refusal) {
            if let file = try PictureUploads.file(context.request, field: "photo_file") {
                let key = try pictures.store(file, crop: PictureUploads.crop(form.crop), in: member.household)
                input.picture = .photo(key)
            }
        } catch {
            errors["picture"] = error.text
        }
        if form.action == "more" {
            input.ingredients = RecipeForm.moreRows(input.ingredients)
            let messages = context.locale.messages(errors)
            return renderer.response(
                try page(context, input: input, id: id, storedName: stored?.name, errors: messages), context,
                status: StorageFailure.status(of: errors.values) ?? (errors.isEmpty ? 200 : 422))
        }
        if errors.isEmpty {
            do {
                let saved = try recipes.save(input, id: id, in: member.household, by: member.memberId)
                return .redirect(to: Route.recipe(saved).path + "?saved=1")
            } catch InventoryError.validation(let fields) {
                errors = fields.mapValues(\.text)
            }
        }
        // Typed rows stay where they were (the errors name them by index), with room to add more.
        input.ingredients = RecipeForm.rows(input.ingredients, spare: 1)
        return renderer.response(
            try page(context, input: input, id: id, storedName: stored?.name, errors: context.locale.messages(errors)), context,
            status: StorageFailure.status(of: errors.values) ?? 422)
    }

    /// `storedName`: the recipe's name as stored, for the heading (the form's may be empty or refused).
    func page(_ context: RequestContext, input: RecipeInput, id: Recipe.ID?, storedName: String?, errors: [String: String]) throws -> RecipeEditorPage {
        let t = context.locale
        let member = try context.signedIn
        let products = try recipes.products(in: member.household)
        let stockLists = try items.folders(in: member.household, kind: .stock)
        let rows = input.ingredients.enumerated().map { index, row in
            IngredientRowView(index: index, input: row, errors: errors, products: products, t: t)
        }
        var pictureDraft = ItemInput()
        pictureDraft.picture = input.picture?.formValue ?? ""
        pictureDraft.kind = "prepared"
        let produce = input.produce
        let chosenList = produce.folderId ?? stockLists.first?.id
        let produceFields = [
            FormField(
                name: "produce_name", label: t[.recipeEditorProduceName], value: produce.name, error: errors["produce_name"],
                hint: t[.recipeEditorProduceNameHint], autocomplete: "off", maxLength: 100),
            FormField(
                name: "produce_quantity", label: t[.fieldQuantity], value: produce.quantity, error: errors["produce_quantity"], maxLength: 12,
                inputMode: "decimal"),
            FormField(
                name: "produce_unit", label: t[.fieldUnit], kind: .select, error: errors["produce_unit"],
                options: ItemUnit.allCases.map { .init(value: $0.rawValue, label: t[.unit, $0], selected: $0.rawValue == produce.unit) }),
            FormField(
                name: "produce_kind", label: t[.fieldKind], kind: .select, error: errors["produce_kind"],
                options: ItemKind.allCases.map { .init(value: $0.rawValue, label: t[.kind, $0], selected: $0.rawValue == produce.kind) }),
            FormField(
                name: "produce_due_days", label: t[.recipeEditorProduceDueDays], value: produce.dueDays, error: errors["produce_due_days"],
                hint: t[.recipeEditorProduceDueDaysHint], maxLength: 4, inputMode: "numeric"),
            FormField(
                name: "produce_folder", label: t[.recipeEditorProduceFolder], kind: .select, error: errors["produce_folder"],
                options: stockLists.map { .init(value: "\($0.id)", label: displayName($0, t), selected: $0.id == chosenList) }),
        ]
        let produceOpen = !produce.name.isEmpty || errors.keys.contains { $0.hasPrefix("produce_") }
        let heading = id == nil ? t[.recipeEditorNewHeading] : t.format(.recipeEditorEditHeading, ["name": storedName ?? input.name])
        return RecipeEditorPage(
            heading: heading, action: id.map { Route.recipe($0).path } ?? Route.Recipes.path, isNew: id == nil, recipeId: id,
            fields: [
                FormField(
                    name: "name", label: t[.recipeEditorName], value: input.name, error: errors["name"], autocomplete: "off", required: true,
                    maxLength: 200)
            ],
            servings: FormField(
                name: "servings", label: t[.recipeEditorServings], value: input.servings, error: errors["servings"], maxLength: 3,
                inputMode: "numeric"),
            tags: FormField(
                name: "tags", label: t[.recipeEditorTags], value: input.tags, error: errors["tags"], hint: t[.recipeEditorTagsHint],
                autocomplete: "off", maxLength: 300),
            sourceUrl: FormField(
                name: "source_url", label: t[.recipeEditorSourceUrl], value: input.sourceUrl, error: errors["source_url"],
                autocomplete: "off", inputType: "url", maxLength: 2000),
            steps: input.steps, stepsError: errors["steps"],
            picture: PicturePicker(index: 0, input: pictureDraft, error: errors["picture"], t: t, urls: renderer.staticURLs, fieldPrefix: ""),
            rows: rows, suggestions: try recipes.ingredientSuggestions(in: member.household), produceFields: produceFields,
            produceOpen: produceOpen, summary: errors.isEmpty ? nil : t.count(.recipeEditorErrors, errors.count),
            cancel: id.map { Route.recipe($0).path } ?? Route.Recipes.path, maxBodyBytes: maxBodyBytes)
    }
}
