import Foundation
import Inventory

/// The confirmation before cooking, for someone standing in the kitchen: what is missing first
/// (with how much), then what will be taken from which item grouped by ingredient, then what is
/// not taken and why; a servings stepper and one big button.
struct CookPage: CompiledPage {
    /// One ingredient and the items it takes from, in taking order.
    struct Group: Sendable {
        let name: String
        let takes: [Take]
    }

    struct Take: Sendable {
        let itemId: Item.ID
        /// "200 ml from 牛乳 in Fridge" / 「冷蔵庫の牛乳から 200 ml」.
        let text: String
        let usesUp: Bool
        /// "due Nov 25", when the item has a due date (why this one is taken first).
        let due: String?
    }

    /// A line that names an ingredient and says something about it.
    struct Line: Sendable {
        let name: String
        let text: String
    }

    /// "Added 2 to Supermarket", after adding what is missing from this page.
    struct Added: Sendable {
        let text: String
        let href: String
    }

    let recipeId: Recipe.ID
    let heading: String
    let servings: Int
    let servingsText: String
    let fewer: Int?
    let more: Int?
    let shortHeading: String?
    let shortfalls: [Line]
    let conflict: Bool
    let groups: [Group]
    let notTaken: [Line]
    let produces: String?
    let shoppingLists: [Choice]
    let back: String
    let here: String
    let added: Added?
    /// Cooking a meal of the plan: its id, carried by every form of the page.
    let meal: String?

    init(
        plan: CookPlan, meal: Meal? = nil, today: CalendarDay, shoppingLists: [Folder], produceFolder: Folder?, conflict: Bool,
        added: (count: Int, list: Folder.ID)?,
        uncomparable: [String: String], t: Catalog
    ) {
        let recipe = plan.recipe
        recipeId = recipe.id ?? 0
        heading = t.format(.cookHeading, ["name": recipe.name])
        servings = plan.servings
        servingsText = t.count(.cookServings, plan.servings)
        fewer = plan.servings > 1 ? plan.servings - 1 : nil
        more = plan.servings < CookController.maxServings ? plan.servings + 1 : nil
        shortHeading = plan.isShort ? t.count(.cookShortHeading, plan.servings) : nil
        shortfalls = plan.shortfalls.map { short in
            guard let missing = short.missing else { return Line(name: short.ingredientName, text: t[.cookShortNone]) }
            let amount = t.quantity(missing, unit: (short.unit ?? .piece).rawValue)
            return Line(name: short.ingredientName, text: t.format(.cookShortMore, ["amount": amount]))
        }
        self.conflict = conflict
        var groups: [Group] = []
        for take in plan.takes {
            let folder = displayName(take.folderName, starter: take.folderStarter, t)
            let line = Take(
                itemId: take.itemId,
                text: t.format(.cookTake, ["amount": t.quantity(take.amount, unit: take.unit), "item": take.itemName, "folder": folder]),
                usesUp: take.usesUp,
                due: take.due.map { t.format(.cookTakeDue, ["date": DisplayFormat.day($0, locale: t)]) })
            if let last = groups.last, last.name == take.ingredientName {
                groups[groups.count - 1] = Group(name: last.name, takes: last.takes + [line])
            } else {
                groups.append(Group(name: take.ingredientName, takes: [line]))
            }
        }
        self.groups = groups
        notTaken = plan.notTaken.map { entry in
            switch entry.reason {
            case .onlyNeedsToBeThere: Line(name: entry.ingredientName, text: t[.cookOnlyPresent])
            case .unitsDoNotCompare:
                Line(name: entry.ingredientName, text: uncomparable[entry.ingredientName] ?? t[.cookUnitsDoNotCompare])
            }
        }
        produces = recipe.produce.map { produce in
            t.format(
                .cookProduces,
                [
                    "amount": t.quantity(produce.quantity, unit: produce.unit), "name": produce.name,
                    "folder": produceFolder.map { displayName($0, t) } ?? "",
                ])
        }
        self.shoppingLists = shoppingLists.enumerated().map { index, list in
            Choice(value: "\(list.id)", label: displayName(list, t), selected: index == 0)
        }
        self.meal = meal.map { "\($0.id)" }
        back =
            meal.map { PlanController.back(to: $0.day, shown: nil, today: today, anchor: "meal-\($0.id.rawValue)") }
            ?? Route.recipe(recipeId).path + "?servings=\(plan.servings)"
        here = Route.recipe(recipeId).cook + "?servings=\(plan.servings)" + (meal.map { "&meal=\($0.id)" } ?? "")
        // Only a list of this household is named (the address cannot put words in the page).
        self.added = added.flatMap { added in
            shoppingLists.first { $0.id == added.list }.map {
                Added(
                    text: added.count == 0
                        ? t.format(.cookAddedNone, ["list": displayName($0, t)]) : t.count(.cookAdded, added.count, ["list": displayName($0, t)]),
                    href: Route.folder(added.list).path)
            }
        }
    }

    func title(_ t: Catalog) -> String { heading }

    var hasTakes: Bool { !groups.isEmpty }
    var hasNotTaken: Bool { !notTaken.isEmpty }
    var hasShoppingLists: Bool { !shoppingLists.isEmpty }
}
