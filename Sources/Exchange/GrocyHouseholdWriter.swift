import Foundation
import Inventory

/// Writes what was read from Grocy into a new household, inside the import's one transaction.
struct GrocyHouseholdWriter {
    let household: NewHousehold
    let data: GrocyData
    let photos: PhotoStore
    let written: [Int64: GrocyPictures.Written]
    let time: Timestamp
    var report: GrocyReport

    private let productsById: [Int64: GrocyData.Product]
    private var folderByLocation: [Int64: Folder.ID] = [:]
    private var folderByList: [Int64: Folder.ID] = [:]
    private var position = 0
    private var unitUses: [Int64: Int] = [:]
    /// A product's Zaiko barcode (its first valid one), by Grocy product id.
    private var barcodeByProduct: [Int64: String] = [:]

    init(
        household: NewHousehold, data: GrocyData, photos: PhotoStore, written: [Int64: GrocyPictures.Written], time: Timestamp,
        report: GrocyReport
    ) {
        self.household = household
        self.data = data
        self.photos = photos
        self.written = written
        self.time = time
        self.report = report
        productsById = Dictionary(data.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func write() throws {
        // Products sharing one picture file share its photo.
        for photo in Dictionary(written.values.map { ($0.key, $0.format) }, uniquingKeysWith: { first, _ in first }) {
            try household.addPhoto(key: photo.key, format: photo.value, writtenBy: photos)
            report.photos += 1
        }
        for location in data.locations {
            folderByLocation[location.id] = try insertFolder(
                location.name, kind: .stock, icon: GrocyKinds.icon(forLocation: location.name, isFreezer: location.isFreezer))
            report.stockLists += 1
        }
        // Lines with no list to be in (a database whose lists were removed) get Grocy's default list.
        let lists = data.shoppingLists.isEmpty && !data.shoppingItems.isEmpty ? [GrocyData.ShoppingList(id: 1, name: "Shopping list")] : data.shoppingLists
        for list in lists {
            folderByList[list.id] = try insertFolder(list.name, kind: .shopping, icon: "cart")
            report.shoppingLists += 1
        }
        try writeProducts()
        try writeStock()
        try writeShoppingLists()
        reportUnits()
        try writeRecipes()
        for (what, count) in data.otherCounts { report.skipped.append(.init(reason: .otherData(what), count: count, examples: [])) }
    }

    // MARK: - Folders and products

    private mutating func insertFolder(_ name: String, kind: FolderKind, icon: String) throws -> Folder.ID {
        let folder = try household.add(
            Folder.Draft(householdId: household.id, name: fitted(name), kind: kind, icon: icon, position: position, createdAt: time))
        position += 1
        return folder.id
    }

    private mutating func writeProducts() throws {
        var taken = Set<String>()
        for barcode in data.barcodes {
            guard let product = productsById[barcode.productId] else { continue }
            guard case .code(let code) = GTIN.typed(barcode.code) else {
                report.skip(.invalidBarcode, "\(barcode.code) (\(product.name))")
                continue
            }
            guard taken.insert(code).inserted else {
                report.skip(.sharedBarcode, "\(barcode.code) (\(product.name))")
                continue
            }
            if barcodeByProduct[product.id] == nil { barcodeByProduct[product.id] = code }
            try household.addProduct(
                barcode: code, name: fitted(product.name), photo: written[product.id]?.key, kind: GrocyKinds.kind(forGroup: product.groupName),
                unit: unit(product.stockUnitId), folderId: product.locationId.flatMap { folderByLocation[$0] }, updatedAt: time)
            countUse(product.stockUnitId)
            report.products += 1
        }
        for product in data.products where barcodeByProduct[product.id] == nil && !data.barcodes.contains(where: { $0.productId == product.id }) {
            report.skip(.productWithoutBarcode, product.name)
        }
    }

    // MARK: - Items

    private mutating func writeStock() throws {
        let fallbackFolder = data.locations.first.flatMap { folderByLocation[$0.id] }
        for entry in data.stock {
            guard let product = productsById[entry.productId] else {
                report.skip(.stockOfMissingProduct, "product #\(entry.productId)")
                continue
            }
            guard let folderId = (entry.locationId ?? product.locationId).flatMap({ folderByLocation[$0] }) ?? fallbackFolder else {
                report.skip(.stockWithoutLocation, product.name)
                continue
            }
            var item = newItem(product, folderId: folderId, amount: entry.amount, unitId: product.stockUnitId)
            item.due = due(entry.bestBefore, of: product.name)
            item.status = entry.isOpen ? .opened : .unopened
            item.note = String((entry.note ?? "").trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.prefix(1000))
            item.searchText = SearchText.fold(item.name, item.note)
            try insert(item)
            report.stockItems += 1
        }
    }

    private mutating func writeShoppingLists() throws {
        for line in data.shoppingItems {
            guard let folderId = folderByList[line.listId] ?? folderByList.values.min() else { continue }
            let note = (line.note ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let product = line.productId.flatMap { productsById[$0] }
            let shownName = product?.name ?? note
            if line.isDone {
                report.skip(.doneShoppingLine, shownName)
                continue
            }
            // A line with only a note is named by the note; its amount is in its own unit.
            let amount = line.amount > 0 ? line.amount : 1
            var item: Item.Draft
            if let product {
                item = newItem(product, folderId: folderId, amount: amount, unitId: product.stockUnitId)
                item.note = String(note.unicodeScalars.prefix(1000))
            } else {
                guard !note.isEmpty else {
                    report.skip(.emptyShoppingLine, "#\(line.productId.map(String.init) ?? "-")")
                    continue
                }
                item = Item.Draft(
                    householdId: household.id, folderId: folderId, name: fitted(String(note.split(separator: "\n").first ?? "")), createdAt: time,
                    updatedAt: time)
                item.quantity = quantity(amount)
                item.unit = unit(line.unitId)
                countUse(line.unitId)
            }
            item.searchText = SearchText.fold(item.name, item.note)
            try insert(item)
            report.shoppingItems += 1
        }
    }

    // MARK: - Recipes

    /// Each recipe with its ingredients named like the products (so they match the imported items)
    /// and linked to the product when it has a barcode; its steps as plain text; "Produces
    /// product" as the item it makes. Grocy keeps an ingredient's amount in the product's stock unit.
    private mutating func writeRecipes() throws {
        let productIds = try household.productIdsByBarcode()
        let firstStock = data.locations.first.flatMap { folderByLocation[$0.id] }
        for source in data.recipes {
            var produce: RecipeProduce?
            if let made = source.producesProductId.flatMap({ productsById[$0] }) {
                produce = RecipeProduce(
                    name: fitted(made.name), quantity: 1, unit: unit(made.stockUnitId), kind: GrocyKinds.kind(forGroup: made.groupName),
                    folderId: made.locationId.flatMap { folderByLocation[$0] } ?? firstStock)
            }
            let recipe = try household.add(
                Recipe.Draft(
                    householdId: household.id, name: fitted(source.name), servings: Self.servings(source.servings),
                    steps: GrocyText.plain(source.description), produce: produce, createdAt: time, updatedAt: time))
            if let picture = source.pictureFileName, !picture.isEmpty { report.skip(.recipePictures, source.name) }
            for (position, line) in source.ingredients.enumerated() {
                guard let product = productsById[line.productId] else { continue }
                let stockUnit = data.units.first { $0.id == product.stockUnitId }
                var unit = stockUnit.flatMap { GrocyUnits.ingredientUnit(for: $0.name, $0.pluralName) }
                var amount: Double? = line.amount > 0 && line.amount.isFinite ? quantity(line.amount) : nil
                if amount != nil, unit == nil {
                    report.skip(.ingredientWithoutUnit, "\(product.name) (\(stockUnit?.name ?? "?"))")
                    amount = nil
                }
                if amount == nil { unit = nil }
                try household.add(
                    RecipeIngredient.Draft(
                        householdId: household.id, recipeId: recipe.id, position: position, name: fitted(product.name), amount: amount, unit: unit,
                        note: String((line.note ?? "").trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.prefix(200)),
                        productId: barcodeByProduct[product.id].flatMap { productIds[$0] }))
                report.ingredients += 1
            }
            report.recipes += 1
        }
    }

    private mutating func newItem(_ product: GrocyData.Product, folderId: Folder.ID, amount: Double, unitId: Int64?) -> Item.Draft {
        var item = Item.Draft(householdId: household.id, folderId: folderId, name: fitted(product.name), createdAt: time, updatedAt: time)
        item.quantity = quantity(amount)
        item.unit = unit(unitId)
        countUse(unitId)
        item.kind = GrocyKinds.kind(forGroup: product.groupName)
        item.barcode = barcodeByProduct[product.id]
        item.photo = written[product.id]?.key
        return item
    }

    private func insert(_ draft: Item.Draft) throws {
        let item = try household.add(draft)
        // The history starts with where it came from, as a registered item's does.
        try household.addHistoryLine(itemId: item.id, memberId: nil, kind: "created", detail: "Grocy", at: time)
    }

    // MARK: - Values

    /// Grocy's base servings as Zaiko keeps them: a whole number from 1 to 100, bounded while it is
    /// still a `Double` (1e20 is 100; NaN and infinity, which Grocy never writes, are 1).
    static func servings(_ value: Double) -> Int {
        guard value.isFinite else { return 1 }
        return Int(min(100, max(1, value.rounded())))
    }

    private func quantity(_ amount: Double) -> Double {
        guard amount.isFinite, amount >= 0 else { return 0 }
        return (min(amount, Quantity.maximum) * 1000).rounded() / 1000
    }

    private mutating func due(_ bestBefore: String?, of name: String) -> CalendarDay? {
        guard let bestBefore, !bestBefore.isEmpty, bestBefore != GrocyImport.neverExpires else { return nil }
        guard let day = CalendarDay(bestBefore) else {
            report.skip(.unreadableDate, "\(bestBefore) (\(name))")
            return nil
        }
        return day
    }

    private func unit(_ unitId: Int64?) -> ItemUnit {
        guard let unitId, let unit = data.units.first(where: { $0.id == unitId }) else { return .piece }
        return GrocyUnits.zaikoUnit(for: unit.name, unit.pluralName).flatMap(ItemUnit.init(rawValue:)) ?? .piece
    }

    private mutating func countUse(_ unitId: Int64?) {
        if let unitId { unitUses[unitId, default: 0] += 1 }
    }

    private mutating func reportUnits() {
        report.units = data.units.compactMap { unit in
            guard let uses = unitUses[unit.id] else { return nil }
            return GrocyReport.UnitMapping(grocyName: unit.name, zaikoUnit: GrocyUnits.zaikoUnit(for: unit.name, unit.pluralName), uses: uses)
        }
    }

    /// Zaiko's names are 1 to 100 characters; a longer one is shortened and said so.
    private mutating func fitted(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.storedLength > 100 else { return trimmed.isEmpty ? "?" : trimmed }
        report.skip(.shortenedName, String(trimmed.prefix(30)) + "…")
        return String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(100)))
    }
}
