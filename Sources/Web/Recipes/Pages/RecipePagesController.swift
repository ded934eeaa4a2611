import Foundation
import HTTPServer
import Inventory

/// The pages people read recipes on: /recipes ("what can we make") and /recipes/{id}. Writing
/// (editor, cook, shopping) belongs to other controllers; these pages only link and post to them.
struct RecipePagesController {
    let recipes: Recipes
    let renderer: Renderer
    let clock: WallClock

    /// Servings the stepper goes between.
    static let servingsRange = 1...99
    /// Recipes on one page of /recipes.
    static let pageSize = 30

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Recipes.path, .signedIn, use: overviewPage)
        router.get(Route.Recipe.pattern.path, .signedIn, use: recipePage)
    }

    func overviewPage(_ context: RequestContext) throws -> Response {
        renderer.response(try overview(context), context)
    }

    func recipePage(_ context: RequestContext) throws -> Response {
        renderer.response(try detail(context), context)
    }

    // MARK: - What can we make

    func overview(_ context: RequestContext) throws -> RecipesPage {
        let member = try context.signedIn
        let t = context.locale
        let query = RecipesQuery(context.request.query)
        // Named only when it is this household's recipe in the trash: the address cannot put words here.
        let contents = try recipes.overviewPage(
            in: member.household, filter: query.filter, trashed: context.request.query["trashed"].flatMap { Recipe.ID($0) }, now: clock.now())
        let (overview, trashed) = (contents.overview, contents.trashed)
        // Every state is counted for its chip; the chosen one is shown.
        var counts: [RecipeReadiness: Int] = [:]
        for summary in overview.recipes { counts[summary.readiness, default: 0] += 1 }
        let shown = overview.recipes.filter { query.state == nil || $0.readiness == query.state }
        // Thirty a page: the page grows with the page, not with the household's recipes.
        let pages = max(1, (shown.count + Self.pageSize - 1) / Self.pageSize)
        let page = min(query.page, pages)
        let onPage = shown.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)

        let cards = onPage.map { summary -> RecipesPage.Card in
            let state = RecipeWords.readiness(summary.readiness, missingCount: summary.missing.count, t)
            return RecipesPage.Card(
                href: Route.recipe(summary.recipe.id).path, name: summary.recipe.name,
                picture: renderer.staticURLs.picture(summary.recipe.picture, size: .small, kind: .prepared), hasPicture: summary.recipe.picture != nil,
                state: summary.readiness.rawValue, stateText: state.text, stateMark: state.mark,
                missing: summary.missing.isEmpty ? nil : RecipeWords.list(summary.missing, t),
                useSoon: summary.useSoon.isEmpty ? nil : t.format(.recipesCardUseSoon, ["names": RecipeWords.list(summary.useSoon, t)]),
                tags: summary.tags.map { tag in
                    RecipesPage.Chip(href: query.with(tag: tag).link, label: tag, count: nil, current: tag == query.tag)
                })
        }
        let stateChips =
            [
                RecipesPage.Chip(
                    href: query.with(state: nil).link, label: t[.recipesFilterAll], count: "\(overview.recipes.count)", current: query.state == nil)
            ]
            + RecipeReadiness.allCases.map { state in
                RecipesPage.Chip(
                    href: query.with(state: state).link, label: RecipeWords.filterLabel(state, t), count: "\(counts[state] ?? 0)",
                    current: query.state == state)
            }
        var tags = overview.tags
        if let tag = query.tag, !tags.contains(tag) { tags.append(tag) }
        let tagChips =
            tags.isEmpty
            ? []
            : [RecipesPage.Chip(href: query.with(tag: nil).link, label: t[.recipesFilterAllKinds], count: nil, current: query.tag == nil)]
                + tags.map { RecipesPage.Chip(href: query.with(tag: $0).link, label: $0, count: nil, current: $0 == query.tag) }
        var hidden: [RecipesPage.Hidden] = []
        if let ingredient = query.ingredient { hidden.append(.init(name: "ingredient", value: ingredient)) }
        if let state = query.state { hidden.append(.init(name: "state", value: state.rawValue)) }
        if let tag = query.tag { hidden.append(.init(name: "tag", value: tag)) }
        if query.ignoresPlan { hidden.append(.init(name: "plan", value: "ignore")) }

        let empty: String
        if overview.total == 0 {
            empty = t[.recipesEmpty]
        } else if let ingredient = query.ingredient, overview.recipes.isEmpty {
            empty = t.format(.recipesEmptyIngredient, ["name": ingredient])
        } else {
            empty = t[.recipesEmptyFiltered]
        }
        return RecipesPage(
            heading: query.ingredient.map { t.format(.recipesWithHeading, ["name": $0]) } ?? t[.recipesHeading],
            ingredient: query.ingredient,
            summary: overview.recipes.isEmpty
                ? nil : t.count(.recipesSummary, overview.recipes.count, ["ready": "\(counts[.ready] ?? 0)"]),
            cards: cards, stateChips: stateChips, tagChips: tagChips, text: query.text, hidden: hidden,
            isFiltered: query.isFiltered, empty: empty, hasRecipes: overview.total > 0,
            notice: trashed.map { t.format(.recipesTrashed, ["name": $0.name]) }, undoIds: trashed.map { String($0.id) },
            here: query.with(page: page).link,
            pager: Pager(page: page, of: pages, t: t) { query.with(page: $0).link },
            planHint: overview.planReserves || query.ignoresPlan
                ? RecipePage.PlanHint(
                    text: t[query.ignoresPlan ? .planIgnoredHint : .planReservedHint], href: query.with(ignoresPlan: !query.ignoresPlan).link,
                    label: t[query.ignoresPlan ? .planCountAgain : .planIgnore]) : nil)
    }

    // MARK: - A recipe

    func detail(_ context: RequestContext) throws -> RecipePage {
        let member = try context.signedIn
        let t = context.locale
        let id: Recipe.ID = try context.id()
        let requested = Int(context.request.query["servings"] ?? "").map {
            min(max($0, Self.servingsRange.lowerBound), Self.servingsRange.upperBound)
        }
        let ignoringPlan = context.request.query["plan"] == "ignore"
        let contents = try recipes.recipePage(id, in: member.household, servings: requested, now: clock.now(), ignoringPlan: ignoringPlan)
        let (detail, folders) = (contents.detail, contents.folders)
        let recipe = detail.recipe

        let ingredients = detail.ingredients.map { ingredient(of: $0, t) }
        let lacking = detail.ingredients.filter { $0.standing.isLacking }.map(\.ingredient.name)
        let state = RecipeWords.readiness(detail.readiness, missingCount: lacking.count, t)
        let servings = detail.servings
        func servingsLink(_ n: Int) -> String { Route.recipe(id).path + "?servings=\(n)#servings" }

        let picture = recipe.picture
        let pictureAlt: String
        switch picture {
        case .illustration(let slug): pictureAlt = t[.illustration, slug]
        case .photo: pictureAlt = t.format(.photoOf, ["name": recipe.name])
        case nil: pictureAlt = ""
        }
        let shopping = folders.filter { $0.kind == .shopping }
        return RecipePage(
            id: id, name: recipe.name, picture: renderer.staticURLs.picture(picture, size: .large, kind: .prepared), hasPicture: picture != nil,
            pictureAlt: pictureAlt,
            tags: detail.tags.map { RecipesPage.Chip(href: RecipesQuery(tag: $0).link, label: $0, count: nil, current: false) },
            state: detail.readiness.rawValue, stateText: state.text, stateMark: state.mark,
            missing: lacking.isEmpty ? nil : RecipeWords.list(lacking, t),
            servings: servings, servingsText: t.count(.recipesServings, servings),
            fewer: servings > Self.servingsRange.lowerBound ? servingsLink(servings - 1) : nil,
            more: servings < Self.servingsRange.upperBound ? servingsLink(servings + 1) : nil,
            recipeServings: servings == recipe.servings ? nil : t.count(.recipesServingsOriginal, recipe.servings),
            ingredients: ingredients, paragraphs: RecipePage.paragraphs(recipe.steps),
            source: Self.safeSource(recipe.sourceUrl), produces: produces(recipe, folders: folders, t),
            canWrite: member.role.canWrite, isLacking: !lacking.isEmpty,
            shoppingLists: shopping.enumerated().map { Choice(value: "\($1.id)", label: displayName($1, t), selected: $0 == 0) },
            notices: RecipeNotices.from(context.request.query, shopping: shopping, t: t),
            here: Route.recipe(id).path + (requested == nil ? "" : "?servings=\(servings)"),
            planHint: detail.planReserves
                ? RecipePage.PlanHint(
                    text: t[ignoringPlan ? .planIgnoredHint : .planReservedHint],
                    href: Route.recipe(id).path + "?servings=\(servings)" + (ignoringPlan ? "" : "&plan=ignore") + "#servings",
                    label: t[ignoringPlan ? .planCountAgain : .planIgnore]) : nil)
    }

    private func ingredient(of availability: IngredientAvailability, _ t: Catalog) -> RecipePage.Ingredient {
        let note = availability.ingredient.note.trimmingCharacters(in: .whitespacesAndNewlines)
        return RecipePage.Ingredient(
            name: availability.ingredient.name, amount: RecipeWords.amount(availability.need, t), note: note.isEmpty ? nil : note,
            standing: RecipeWords.standing(availability.standing, need: availability.need, fresh: availability.fresh, t),
            fresh: availability.fresh.map { match($0, t) },
            expiredNote: Self.expiredNote(availability.expired, t),
            expired: availability.expired.map { match($0, t) })
    }

    private func match(_ match: StockMatch, _ t: Catalog) -> RecipePage.Match {
        let due = match.due
        return RecipePage.Match(
            href: Route.item(match.itemId).path, name: match.name, quantity: t.quantity(match.quantity, unit: match.unit),
            folder: displayName(match.folderName, starter: match.folderStarter, t),
            due: due.map { t.format(.recipesDue, ["date": DisplayFormat.day($0, locale: t)]) },
            dueState: match.dueState.rawValue,
            dueWord: [.expired, .today, .soon].contains(match.dueState) ? t[.due, match.dueState.rawValue] : nil)
    }

    /// "1 expired in Fridge", "2 expired in Fridge, 1 in Pantry": by folder, in taking order.
    static func expiredNote(_ expired: [StockMatch], _ t: Catalog) -> String? {
        guard !expired.isEmpty else { return nil }
        var folders: [(name: String, count: Int)] = []
        for match in expired {
            let name = displayName(match.folderName, starter: match.folderStarter, t)
            if let index = folders.firstIndex(where: { $0.name == name }) { folders[index].count += 1 } else { folders.append((name, 1)) }
        }
        return folders.map { t.count(.recipesExpiredIn, $0.count, ["folder": $0.name]) }.joined(separator: t[.recipesListSeparator])
    }

    /// What cooking makes: "Makes 2 bottles of juice · due 2 days after · into Fridge".
    private func produces(_ recipe: Recipe, folders: [Folder], _ t: Catalog) -> String? {
        guard let produce = recipe.produce else { return nil }
        var parts = [t.format(.recipesProduces, ["amount": t.quantity(produce.quantity, unit: produce.unit), "name": produce.name])]
        if let days = produce.dueDays { parts.append(t.count(.recipesProducesDue, days)) }
        let folder = produce.folderId.flatMap { id in folders.first { $0.id == id && $0.kind == .stock } } ?? folders.first { $0.kind == .stock }
        if let folder { parts.append(t.format(.recipesProducesFolder, ["folder": displayName(folder, t)])) }
        return parts.joined(separator: t[.recipesListSeparator])
    }

    /// The source address, only when it is a web address (never `javascript:` in an href).
    static func safeSource(_ address: String?) -> String? {
        guard let address = address?.trimmingCharacters(in: .whitespacesAndNewlines), let url = URL(string: address),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return address
    }
}
