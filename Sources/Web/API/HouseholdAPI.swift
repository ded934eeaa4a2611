import APIContract
import Foundation
import Inventory
import OpenAPIRuntime

/// The operations of `/api/v1` (api/openapi.yaml), over the same stores the pages use. Each acts
/// as the request's token holder (`APICaller`): its household only, within its member's role and
/// its token's scope. Refusals are thrown as `APIProblem`s; the routes word them.
struct HouseholdAPI: APIProtocol {
    let items: Items
    let feed: ChangeFeed
    let keepRules: KeepRules
    let products: Products
    let recipes: Recipes
    let cooking: Cooking
    let mealPlan: MealPlan
    let settings: HouseholdSettings
    let clock: WallClock

    // MARK: - Household and folders

    func getHousehold(_ input: Operations.GetHousehold.Input) async throws -> Operations.GetHousehold.Output {
        let holder = try APICaller.current
        return .ok(
            .init(
                body: .json(
                    .init(
                        id: holder.household.householdId.rawValue, name: holder.householdName, timeZone: holder.timeZone,
                        member: .init(id: holder.memberId.rawValue, name: holder.memberName, role: .init(rawValue: holder.role.rawValue) ?? .viewer),
                        scopes: [.init(rawValue: holder.scope.rawValue) ?? .read]))))
    }

    func listFolders(_ input: Operations.ListFolders.Input) async throws -> Operations.ListFolders.Output {
        let holder = try APICaller.current
        let t = try Self.catalog
        let folders = try items.folders(in: holder.household).map {
            Components.Schemas.Folder(
                id: $0.id.rawValue, name: displayName($0, t), kind: $0.kind == .stock ? .stock : .shopping, itemCount: $0.itemCount)
        }
        return .ok(.init(body: .json(.init(folders: folders))))
    }

    func getSummary(_ input: Operations.GetSummary.Input) async throws -> Operations.GetSummary.Output {
        let holder = try APICaller.current
        let (counts, window) = try items.dueCounts(in: holder.household, now: clock.now())
        let below = try keepRules.belowMinimumCount(in: holder.household)
        return .ok(
            .init(
                body: .json(
                    .init(
                        today: window.today.description, expired: counts.expired, dueToday: counts.today, dueSoon: counts.soon,
                        dueSoonDays: window.soonUntil.days(since: window.today), belowMinimum: below))))
    }

    // MARK: - Items

    /// The longest span `listDue` reads, and the most items it answers.
    static let dueLimits = (days: 366, items: 500)

    func listDue(_ input: Operations.ListDue.Input) async throws -> Operations.ListDue.Output {
        let holder = try APICaller.current
        let query = input.query
        let (first, last) = try Self.days(from: query.from, to: query.to, longest: Self.dueLimits.days)
        let limit = query.limit ?? Self.dueLimits.items
        guard (1...Self.dueLimits.items).contains(limit) else { throw APIProblem(.invalid, values: ["reason": "limit: 1 to 500"]) }
        let t = try Self.catalog
        let zone = Self.timeZone(holder)
        let due = try items.due(in: holder.household, from: first, through: last, limit: limit).map { Self.dueItem($0, t, zone) }
        return .ok(.init(body: .json(.init(items: due))))
    }

    func trashItem(_ input: Operations.TrashItem.Input) async throws -> Operations.TrashItem.Output {
        let holder = try APICaller.current
        let (item, kind) = try read(input.path.itemId, holder)
        try Self.requireWrite(holder, on: [kind])
        try items.trash([item.id], in: holder.household, by: holder.memberId)
        return .noContent(.init())
    }

    /// The most items a page may hold, and the longest cursor taken back.
    static let pageLimits = (largest: 100, cursorLength: 2000)

    func listItems(_ input: Operations.ListItems.Input) async throws -> Operations.ListItems.Output {
        let holder = try APICaller.current
        let query = input.query
        let limit = query.limit ?? 50
        guard (1...Self.pageLimits.largest).contains(limit) else { throw APIProblem(.invalid, values: ["reason": "limit: 1 to 100"]) }
        let position = try query.cursor.map(Self.position(fromCursor:))
        if let q = query.q, q.count > 200 { throw APIProblem(.invalid, values: ["reason": "q: at most 200 characters"]) }
        let folder = try items.folder(Folder.ID(rawValue: input.path.folderId), in: holder.household)
        let filter = ListFilter(text: query.q ?? "", kinds: (query.kind ?? []).map(\.rawValue), status: query.status?.rawValue)
        // One more than asked says whether there is a next page.
        let (read, total) = try items.slice(of: folder, filter: filter, after: position, limit: limit + 1)
        let found = read.prefix(limit)
        let zone = Self.timeZone(holder)
        let next = read.count > limit ? found.last.map { Self.cursor(after: ListPosition(after: $0, kind: folder.kind)) } : nil
        return .ok(.init(body: .json(.init(items: found.map { Self.item($0, kind: folder.kind, timeZone: zone) }, total: total, nextCursor: next))))
    }

    func createItems(_ input: Operations.CreateItems.Input) async throws -> Operations.CreateItems.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        guard (1...10).contains(payload.items.count) else { throw APIProblem(.invalid, values: ["reason": "items: 1 to 10"]) }
        let folder = try items.folder(Folder.ID(rawValue: input.path.folderId), in: holder.household)
        try Self.requireWrite(holder, on: [folder.kind])
        let unnamed = payload.items.indices.filter { payload.items[$0].name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        guard unnamed.isEmpty else {
            throw APIProblem.unprocessable(unnamed.map { APIProblem.FieldError(draft: $0, field: ItemField.name.rawValue, problem: .itemNameRequired) })
        }
        let zone = Self.timeZone(holder)
        let ids = try items.register(payload.items.map(Self.input), into: folder.id, in: holder.household, by: holder.memberId, timeZone: zone)
        let saved = try ids.map { try items.item($0, in: holder.household) }
        return .created(.init(body: .json(.init(items: saved.map { Self.item($0, kind: folder.kind, timeZone: zone) }))))
    }

    func getItem(_ input: Operations.GetItem.Input) async throws -> Operations.GetItem.Output {
        let holder = try APICaller.current
        let (item, kind) = try read(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: Self.etag(item)), body: .json(Self.item(item, kind: kind, timeZone: Self.timeZone(holder)))))
    }

    func updateItem(_ input: Operations.UpdateItem.Input) async throws -> Operations.UpdateItem.Output {
        let holder = try APICaller.current
        guard case .json(let changes) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let zone = Self.timeZone(holder)
        let (item, kind) = try read(input.path.itemId, holder)
        let target = try changes.folderId.map { try items.folder(Folder.ID(rawValue: $0), in: holder.household) }
        try Self.requireWrite(holder, on: [kind, target?.kind ?? kind])
        let version: Int
        if let sent = input.headers.ifMatch {
            guard let parsed = Self.version(fromETag: sent), parsed == item.version else {
                throw Self.versionMismatch(sent: sent, current: Self.item(item, kind: kind, timeZone: zone))
            }
            version = parsed
        } else {
            version = item.version
        }
        var form = ItemInput(item, timeZone: zone)
        if let name = changes.name { form.name = name }
        if let quantity = changes.quantity { form.quantity = Quantity.text(quantity) }
        if let unit = changes.unit { form.unit = unit.rawValue }
        if let kind = changes.kind { form.kind = kind.rawValue }
        if let note = changes.note { form.note = note }
        if let barcode = changes.barcode { form.barcode = barcode }
        if let due = changes.due { form.due = due }
        if let remindAt = changes.remindAt { form.remindAt = remindAt }
        if let status = changes.status { form.status = status.rawValue }
        if let urgent = changes.urgent { form.urgent = urgent }
        do {
            try items.update(
                item.id, with: form, folderId: target?.id ?? item.folderId, version: version, in: holder.household, by: holder.memberId, timeZone: zone)
        } catch InventoryError.conflict {
            let (now, nowKind) = try read(input.path.itemId, holder)
            throw Self.versionMismatch(sent: input.headers.ifMatch ?? Self.etag(item), current: Self.item(now, kind: nowKind, timeZone: zone))
        }
        let saved = try written(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func restoreItem(_ input: Operations.RestoreItem.Input) async throws -> Operations.RestoreItem.Output {
        let holder = try APICaller.current
        let (item, kind) = try items.trashedItem(Item.ID(rawValue: input.path.itemId), in: holder.household)
        try Self.requireWrite(holder, on: [kind])
        try items.restore([item.id], in: holder.household, by: holder.memberId)
        let saved = try written(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func adjustQuantity(_ input: Operations.AdjustQuantity.Input) async throws -> Operations.AdjustQuantity.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let (item, kind) = try read(input.path.itemId, holder)
        try Self.requireWrite(holder, on: [kind])
        try items.adjustQuantity(item.id, by: payload.delta, in: holder.household, by: holder.memberId)
        let saved = try written(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func markOpened(_ input: Operations.MarkOpened.Input) async throws -> Operations.MarkOpened.Output {
        let holder = try APICaller.current
        let (item, kind) = try read(input.path.itemId, holder)
        try Self.requireWrite(holder, on: [kind])
        try Self.require(kind, is: .stock)
        try items.markOpened(item.id, in: holder.household, by: holder.memberId)
        let saved = try written(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func setInBasket(_ input: Operations.SetInBasket.Input) async throws -> Operations.SetInBasket.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let (item, kind) = try read(input.path.itemId, holder)
        try Self.requireWrite(holder, on: [kind])
        try Self.require(kind, is: .shopping)
        try items.setInBasket(item.id, payload.inBasket, in: holder.household, by: holder.memberId)
        let saved = try written(input.path.itemId, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func buyItem(_ input: Operations.BuyItem.Input) async throws -> Operations.BuyItem.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let (item, kind) = try read(input.path.itemId, holder)
        let target = try items.folder(Folder.ID(rawValue: payload.folderId), in: holder.household)
        try Self.requireWrite(holder, on: [kind, target.kind])
        try Self.require(kind, is: .shopping, field: "item")
        try Self.require(target.kind, is: .stock)
        let line = BoughtInput(
            id: item.id, quantity: Quantity.text(payload.quantity ?? item.quantity), due: payload.due ?? "", addToExisting: payload.joinExisting ?? true)
        let rows: [Item.ID]
        do {
            rows = try items.buy([line], into: target.id, in: holder.household, by: holder.memberId)
        } catch InventoryError.validation(let fields) {
            // The Bought page's fields are per line (`due_<id>`); here there is one line.
            let suffix = "_\(item.id.rawValue)"
            throw APIProblem.unprocessable(
                fields.sorted { $0.key < $1.key }.map {
                    .init(field: $0.key.hasSuffix(suffix) ? String($0.key.dropLast(suffix.count)) : $0.key, problem: $0.value)
                })
        }
        let saved = try written(rows[0].rawValue, holder)
        return .ok(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    func buyAgain(_ input: Operations.BuyAgain.Input) async throws -> Operations.BuyAgain.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let (item, _) = try read(input.path.itemId, holder)
        let list = try items.folder(Folder.ID(rawValue: payload.folderId), in: holder.household)
        try Self.requireWrite(holder, on: [list.kind])
        try Self.require(list.kind, is: .shopping)
        let copy = try items.buyAgain(item.id, onto: list.id, in: holder.household, by: holder.memberId)
        let saved = try written(copy.rawValue, holder)
        return .created(.init(headers: .init(eTag: saved.etag), body: .json(saved.item)))
    }

    // MARK: - Changes

    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        let holder = try APICaller.current
        let limit = input.query.limit ?? ChangeFeed.maximumLimit
        guard input.query.since >= 0 else { throw APIProblem(.invalid, values: ["reason": "since: 0 or more"]) }
        guard (1...ChangeFeed.maximumLimit).contains(limit) else { throw APIProblem(.invalid, values: ["reason": "limit: 1 to 500"]) }
        switch try feed.changes(since: input.query.since, in: holder.household, limit: limit) {
        case .tooFarBehind(let latest):
            return .ok(.init(body: .json(.init(changes: [], latest: latest, reset: true))))
        case .changes(let changes, let latest):
            return .ok(.init(body: .json(.init(changes: changes.map(Self.change), latest: latest, reset: false))))
        }
    }

    /// Never reached: `APIRoutes` answers `GET /events` itself (`APIRoutes.streamed`), with the
    /// stream `LiveEvents` feeds, since the generated code's answers pass through as whole bodies.
    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        throw APIProblem(.server)
    }

    // MARK: - Between the domain and the document

    /// An item of the holder's household and the kind of its list; anything else is not found.
    private func read(_ id: Int64, _ holder: TokenHolder) throws -> (Item, FolderKind) {
        let item = try items.item(Item.ID(rawValue: id), in: holder.household)
        return (item, try items.folder(item.folderId, in: holder.household).kind)
    }

    /// An item as a write left it: its `ETag` and its body, read again after the write.
    private func written(_ id: Int64, _ holder: TokenHolder) throws -> (etag: String, item: Components.Schemas.Item) {
        let (item, kind) = try read(id, holder)
        return (Self.etag(item), Self.item(item, kind: kind, timeZone: Self.timeZone(holder)))
    }

    /// Refuses, beside `field`, a list of the other kind than the operation needs.
    static func require(_ kind: FolderKind, is wanted: FolderKind, field: String = "folder_id") throws {
        guard kind == wanted else {
            throw APIProblem.unprocessable([.init(field: field, problem: wanted == .stock ? .folderNotStock : .folderNotShopping)])
        }
    }

    /// Refuses a write the member's role (viewers) or the token's scope does not allow.
    static func requireWrite(_ holder: TokenHolder, on kinds: [FolderKind]) throws {
        guard holder.role.canWrite else { throw APIProblem(.forbiddenRole) }
        guard kinds.allSatisfy({ holder.scope.allowsWrites(on: $0) }) else { throw APIProblem(.forbiddenScope) }
    }

    static var catalog: Catalog {
        get throws {
            guard let catalog = APICaller.catalog else { throw APIProblem(.server) }
            return catalog
        }
    }

    static func timeZone(_ holder: TokenHolder) -> TimeZone { TimeZone(identifier: holder.timeZone) ?? .gmt }

    static func item(_ item: Item, kind: FolderKind, timeZone: TimeZone) -> Components.Schemas.Item {
        let form = ItemInput(item, timeZone: timeZone)
        let isStock = kind == .stock
        return Components.Schemas.Item(
            id: item.id.rawValue, folderId: item.folderId.rawValue, name: item.name, quantity: item.quantity,
            unit: .init(rawValue: item.unit.rawValue) ?? .piece, kind: .init(rawValue: item.kind.rawValue) ?? .other, note: item.note,
            barcode: item.barcode ?? "", due: isStock && !form.due.isEmpty ? form.due : nil,
            remindAt: isStock && !form.remindAt.isEmpty ? form.remindAt : nil,
            status: isStock ? item.status.flatMap { .init(rawValue: $0.rawValue) } : nil, urgent: isStock ? nil : item.urgent,
            inBasket: isStock ? nil : item.inBasket, step: item.step, version: item.version, updatedAt: item.updatedAt.date)
    }

    /// A span of days a query names (`from`, `to`), first to last, at most `longest` days.
    static func days(from: String, to: String, longest: Int) throws -> (first: CalendarDay, last: CalendarDay) {
        guard let first = CalendarDay(from), let last = CalendarDay(to), first <= last, last.days(since: first) < longest else {
            throw APIProblem(.invalid, values: ["reason": "from and to: days YYYY-MM-DD, from first, at most \(longest) days"])
        }
        return (first, last)
    }

    static func dueItem(_ entry: DueItem, _ t: Catalog, _ zone: TimeZone) -> Components.Schemas.DueItem {
        Components.Schemas.DueItem(item: item(entry.item, kind: .stock, timeZone: zone), folderName: folderName(entry, t))
    }

    /// The household's day and due-soon days now.
    func window(_ holder: TokenHolder) throws -> DueWindow {
        DueWindow(household: try settings.household(holder.household), now: clock.now())
    }

    static func input(_ draft: Components.Schemas.ItemDraft) -> ItemInput {
        var form = ItemInput()
        form.name = draft.name
        if let quantity = draft.quantity { form.quantity = Quantity.text(quantity) }
        if let unit = draft.unit { form.unit = unit.rawValue }
        if let kind = draft.kind { form.kind = kind.rawValue }
        form.note = draft.note ?? ""
        form.barcode = draft.barcode ?? ""
        form.due = draft.due ?? ""
        form.remindAt = draft.remindAt ?? ""
        if let status = draft.status { form.status = status.rawValue }
        form.urgent = draft.urgent ?? false
        return form
    }

    static func change(_ change: Change) -> Components.Schemas.Change {
        let (entity, id): (Components.Schemas.Change.EntityPayload, Int64) =
            switch change.entity {
            case .folder(let id): (.folder, id.rawValue)
            case .item(let id): (.item, id.rawValue)
            case .product(let id): (.product, id.rawValue)
            case .recipe(let id): (.recipe, id.rawValue)
            case .meal(let id): (.meal, id.rawValue)
            }
        return Components.Schemas.Change(
            sequence: change.sequence, entity: entity, id: id, kind: .init(rawValue: change.kind.rawValue) ?? .changed, version: change.version,
            inTrash: change.inTrash, fromFolderId: change.fromFolderId?.rawValue, toFolderId: change.toFolderId?.rawValue,
            memberId: change.memberId?.rawValue, at: change.at.date)
    }

    // MARK: - Versions and cursors

    static func etag(_ item: Item) -> String { "\"\(item.version)\"" }

    /// The version in an `If-Match` value: `"7"`, `W/"7"` or `7`.
    static func version(fromETag text: String) -> Int? {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("W/") { value.removeFirst(2) }
        return Int(value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    static func versionMismatch(sent: String, current: Components.Schemas.Item) -> APIProblem {
        var problem = APIProblem(.versionMismatch)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        problem.extra["sent_version"] = try? encoder.encode(sent)
        problem.extra["current"] = try? encoder.encode(current)
        return problem
    }

    /// A page's cursor: where the next page starts (after its last item), opaque to clients.
    static func cursor(after position: ListPosition) -> String {
        "k" + Crypto.base64URL(Array((try? JSONEncoder().encode(position)) ?? Data()))
    }

    static func position(fromCursor cursor: String) throws -> ListPosition {
        let refused = APIProblem(.invalid, values: ["reason": "cursor: one a page gave"])
        guard cursor.hasPrefix("k"), cursor.utf8.count <= pageLimits.cursorLength, let json = Crypto.bytes(base64URL: String(cursor.dropFirst())),
            let position = (try? JSONDecoder().decode(ListPosition.self, from: Data(json)))?.checked()
        else { throw refused }
        return position
    }
}
