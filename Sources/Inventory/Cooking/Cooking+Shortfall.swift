import GRDB

extension Cooking {
    /// Adds the shortfall for `servings` to a shopping list of the household, in one transaction:
    /// for each lacking ingredient, the missing amount minus what that list already has of it (same
    /// folded name, a unit that compares, converted), added to a row of the same name and unit when
    /// there is one, else as a new row in the ingredient's unit. An ingredient that only needs to be
    /// there is added as one item unless the list has it already. So a second call adds nothing.
    /// Returns what it added. Errors: `.validation(["folder": …])` for a stock list; `.notFound` for
    /// another household's list or recipe.
    public func addShortfall(
        _ recipeId: Recipe.ID, servings: Int, to shoppingFolderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID, window: DueWindow
    )
        throws -> [AddedToList]
    {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let list = try Items.folder(db, shoppingFolderId, scope.householdId)
            guard list.kind == .shopping else { throw InventoryError.validation(["folder": .folderNotShopping]) }
            let plan = try CookPlanner.plan(db, recipeId: recipeId, servings: servings, householdId: scope.householdId, window: window)
            return try Self.putOnList(WantedOnList.lines(plan.shortfalls), list, counting: [list.id], db, by: memberId, at: time)
        }
    }

    /// Puts each wanted line on `list`: the missing amount minus what the `counting` lists already
    /// hold of it (same folded name, a unit that compares, converted), added to a row of `list` of
    /// the same name and unit when there is one, else as a new row in the line's unit. A line that
    /// only needs to be there is added as one item unless a counted list has it. So a second call
    /// adds nothing. Returns what it added.
    static func putOnList(_ lines: [WantedOnList], _ list: Folder, counting: [Folder.ID], _ db: Database, by memberId: Member.ID, at time: Timestamp)
        throws -> [AddedToList]
    {
        var added: [AddedToList] = []
        let marks = Array(repeating: "?", count: max(1, counting.count)).joined(separator: ", ")
        for wanted in lines {
            let rows = try Item.fetchAll(
                db,
                sql: """
                    SELECT * FROM item WHERE household_id = ? AND deleted_at IS NULL AND search_text >= ? AND search_text < ? AND folder_id IN (\(marks))
                    ORDER BY id
                    """,
                arguments: StatementArguments([list.householdId, wanted.folded + "\n", wanted.folded + "\u{0B}"] + (counting.isEmpty ? [list.id] : counting)))
            // A missing amount is never in a cooking measure, so its unit is an item unit too.
            guard let missing = wanted.missing, let unit = wanted.unit, let itemUnit = ItemUnit(rawValue: unit.rawValue) else {
                if rows.isEmpty {
                    try Self.newRow(db, wanted, quantity: 1, unit: .piece, on: list, by: memberId, at: time)
                    added.append(AddedToList(name: wanted.name, amount: nil, unit: "piece", merged: false))
                }
                continue
            }
            let onList = rows.reduce(0.0) { sum, row in
                sum + (IngredientUnit(rawValue: row.unit.rawValue).flatMap { $0.convert(row.quantity, to: unit) } ?? 0)
            }
            let amount = Quantity.rounded(missing - onList)
            guard amount > 0 else { continue }
            if var row = rows.first(where: { $0.unit == itemUnit && $0.folderId == list.id }) {
                let before = row.quantity
                row.quantity = min(Quantity.maximum, Quantity.rounded(before + amount))
                row.version += 1
                row.updatedAt = time
                try row.update(db)
                try Items.record(db, row, "quantity", "\(Quantity.text(before)) → \(Quantity.text(row.quantity))", by: memberId, at: time)
                added.append(AddedToList(name: row.name, amount: amount, unit: unit.rawValue, merged: true))
            } else {
                try Self.newRow(db, wanted, quantity: min(Quantity.maximum, amount), unit: itemUnit, on: list, by: memberId, at: time)
                added.append(AddedToList(name: wanted.name, amount: amount, unit: unit.rawValue, merged: false))
            }
        }
        return added
    }

    /// A new shopping row, of the kind the household's items of that name have (else "other").
    static func newRow(_ db: Database, _ wanted: WantedOnList, quantity: Double, unit: ItemUnit, on list: Folder, by memberId: Member.ID, at time: Timestamp)
        throws
    {
        let kind =
            try ItemKind.fetchOne(
                db,
                sql: """
                    SELECT kind FROM item WHERE household_id = ? AND deleted_at IS NULL AND search_text >= ? AND search_text < ? ORDER BY id DESC LIMIT 1
                    """, arguments: [list.householdId, wanted.folded + "\n", wanted.folded + "\u{0B}"]) ?? .other
        var draft = Item.Draft(
            householdId: list.householdId, folderId: list.id, name: wanted.name, quantity: quantity, unit: unit, kind: kind, createdAt: time,
            updatedAt: time)
        Items.fit(&draft, to: .shopping)
        let item = try draft.insertAndFetch(db, as: Item.self)
        try Items.record(db, item, "created", list.name, by: memberId, at: time)
    }
}

/// One thing to put on a shopping list: the shortfalls of ingredients with the same folded name
/// added together (two lines of eggs are one row of eggs), in the first one's unit.
struct WantedOnList {
    let name: String
    let folded: String
    /// nil: only needs to be there.
    var missing: Double?
    var unit: IngredientUnit?

    static func lines(_ shortfalls: [Shortfall]) -> [WantedOnList] {
        var lines: [WantedOnList] = []
        for shortfall in shortfalls {
            let folded = SearchText.fold(shortfall.ingredientName.trimmingCharacters(in: .whitespacesAndNewlines))
            let line = WantedOnList(name: shortfall.ingredientName, folded: folded, missing: shortfall.missing, unit: shortfall.unit)
            let same = lines.indices.filter { lines[$0].folded == folded }
            guard let missing = line.missing, let unit = line.unit else {
                // Only needs to be there: any line of that name covers it.
                if same.isEmpty { lines.append(line) }
                continue
            }
            if let index = same.first(where: { lines[$0].missing != nil && lines[$0].unit.flatMap { unit.convert(missing, to: $0) } != nil }) {
                lines[index].missing = Quantity.rounded(lines[index].missing! + unit.convert(missing, to: lines[index].unit!)!)
            } else if let index = same.first(where: { lines[$0].missing == nil }) {
                lines[index] = line
            } else {
                lines.append(line)
            }
        }
        return lines
    }
}
