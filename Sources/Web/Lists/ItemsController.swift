import Foundation
import HTTPServer
import Imaging
import Inventory
import Logging

/// Items, everything under `/items`: the batch editor, the item editor and its conflict page, the
/// item page with its photo, and the quick actions on one row of a list.
struct ItemsController {
    let items: Items
    let settings: HouseholdSettings
    let products: Products
    let keepRules: KeepRules
    let pictures: PictureUploads
    let lookup: ProductLookup
    let renderer: Renderer
    let clock: WallClock
    let maxBodyBytes: Int
    let logger: Logger
    /// Undo beside a cook's lines in an item's history (cookpages).
    var cookUndo: CookUndoInHistory? = nil
    static let maxDrafts = 10

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.newItem, .writer, use: newForm)
        router.post(Route.newItem, .writer, uploads: true, use: create)
        router.get(Route.Item.pattern.edit, .writer, use: editForm)
        router.get(Route.Item.pattern.path, .signedIn, use: show)
        router.post(Route.Item.pattern.path, .writer, uploads: true, use: save)
        router.post(Route.Item.pattern.photo, .writer, uploads: true, use: savePhoto)
        // A row's quick actions: on an item someone deleted meanwhile, answered in place.
        router.post(Route.Item.pattern.quantity, .writer, use: rows.inPlace(adjustQuantity))
        router.post(Route.Item.pattern.opened, .writer, use: rows.inPlace(markOpened))
        router.post(Route.Item.pattern.urgent, .writer, use: rows.inPlace(setUrgent))
        router.post(Route.Item.pattern.basket, .writer, use: rows.inPlace(setInBasket))
        router.post(Route.Item.pattern.delete, .writer, use: rows.inPlace(trash))
        router.post(Route.Item.pattern.buyAgain, .writer, use: rows.inPlace(buyAgain))
        router.get(Route.Item.pattern.empty, .writer, use: askWhenEmpty)
    }

    /// The batch editor with one empty draft, for the folder `?folder=` names (else the first).
    func newForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let folders = try items.folders(in: member.household)
        let folder = try Folder.ID(context.request.query["folder"] ?? "").map { try items.folder($0, in: member.household) } ?? folders.first
        guard let folder else { return .redirect(to: "/") }
        return renderer.response(try editor(context, folder: folder, folders: folders, drafts: [ItemInput()], errors: [:]), context)
    }

    /// The batch editor's form: saves the drafts, or answers one of its other buttons (add or
    /// remove a draft, switch folder, scan, look up) with the form again.
    func create(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(BatchEditorForm.self)
        let folders = try items.folders(in: member.household)
        var folder = try items.folder(form.folder ?? 0, in: member.household)
        var drafts = Self.drafts(from: context.request.form)
        // Photos are stored whatever the action, so a form shown again keeps them.
        var errors = attachPhotos(context, to: &drafts, in: member.household)
        var state = EditorState()
        var storageStatus: Int?
        Self.discardUnfit(form.discardUnfit, &drafts, folder: folder)
        // "Remove" beside a draft names the draft (its position) instead of an action.
        var action = form.remove != nil ? "remove" : form.action
        if action == "enter" {
            // Enter in a field: a draft with a barcode and no name yet is a USB scanner's (it ends
            // with Enter), so look it up; anything else saves, as Enter does in any form.
            let scanned = drafts.contains {
                !$0.barcode.trimmingCharacters(in: .whitespaces).isEmpty && $0.name.trimmingCharacters(in: .whitespaces).isEmpty
            }
            action = scanned ? "lookup" : "save"
        }
        switch action {
        case "add":
            // Without JavaScript "add a draft" re-renders the form with one more, keeping everything.
            if drafts.count < Self.maxDrafts { drafts.append(ItemInput()) }
        case "remove":
            // Without JavaScript "Remove" re-renders the form without that draft, keeping the others.
            if let position = form.remove.flatMap({ Int($0) }), drafts.indices.contains(position) { drafts.remove(at: position) }
            if drafts.isEmpty { drafts = [ItemInput()] }
            errors = [:]
        case "switch":
            break
        case "scan":
            state = try scan(context, into: &drafts, folder: &folder, batch: true, in: member.household)
        case "lookup":
            state = try lookUp(&drafts, folder: &folder, errors: &errors, in: member.household)
        default:
            // Typed fields the chosen folder would not keep come back to the form (asked below).
            if errors.isEmpty, Self.unfit(drafts, folder: folder).isEmpty {
                do {
                    let zone = try timeZone(member)
                    let ids = try items.register(drafts, into: folder.id, in: member.household, by: member.memberId, timeZone: zone)
                    return .redirect(to: Route.folder(folder.id).path + "?added=\(ids.count)")
                } catch let problems as ItemFormErrors {
                    errors = Self.formNames(problems)
                } catch {
                    let storage = try storageFailure(error, context)
                    state.storageError = context.locale[storage.text]
                    storageStatus = storage.status
                }
            }
        }
        let messages = Self.batchMessages(errors, drafts: drafts, t: context.locale)
        let failed = !errors.isEmpty || state.scanError != nil || (!["add", "remove"].contains(action) && !Self.unfit(drafts, folder: folder).isEmpty)
        return renderer.response(
            try editor(context, folder: folder, folders: folders, drafts: drafts, errors: messages, state: state),
            context, status: storageStatus ?? StorageFailure.status(of: errors.values) ?? (failed ? 422 : 200))
    }

    /// The item editor, with the item as stored as the base a save merges against.
    func editForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let item = try items.item(try context.id(), in: member.household)
        let folder = try items.folder(item.folderId, in: member.household)
        let zone = try timeZone(member)
        let input = ItemInput(item, timeZone: zone)
        return renderer.response(
            try editor(
                context, folder: folder, folders: try items.folders(in: member.household), drafts: [input], errors: [:], item: item,
                base: EditBase(item, timeZone: zone)),
            context)
    }

    /// The item page: its facts, photo and history.
    func show(_ context: RequestContext) throws -> Response {
        renderer.response(try detail(context, itemId: try context.id()), context)
    }

    /// The item editor's form: saves the item (merged with a change made since the form was opened,
    /// or the conflict page when both changed one field), or switches folder or scans.
    func save(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let current = try items.item(id, in: member.household)
        let folders = try items.folders(in: member.household)
        let form = try context.form(ItemEditorForm.self)
        var folder = try items.folder(form.folder ?? current.folderId, in: member.household)
        var drafts = [Self.drafts(from: context.request.form).first ?? ItemInput()]
        // A form shown again keeps the base it was opened with, so its save still merges.
        let sentBase = EditBase(form: context.request.form)
        let base = try sentBase ?? EditBase(current, timeZone: timeZone(member))
        let photoErrors = attachPhotos(context, to: &drafts, in: member.household)
        let photoMessages = context.locale.messages(photoErrors)
        var state = EditorState()
        Self.discardUnfit(form.discardUnfit, &drafts, folder: folder)
        let unfit = !Self.unfit(drafts, folder: folder).isEmpty
        switch form.action {
        case "switch":
            return renderer.response(
                try editor(context, folder: folder, folders: folders, drafts: drafts, errors: photoMessages, item: current, base: base), context,
                status: StorageFailure.status(of: photoErrors.values) ?? (photoErrors.isEmpty && !unfit ? 200 : 422))
        case "scan":
            state = try scan(context, into: &drafts, folder: &folder, batch: false, in: member.household)
            return renderer.response(
                try editor(context, folder: folder, folders: folders, drafts: drafts, errors: photoMessages, item: current, base: base, state: state),
                context, status: StorageFailure.status(of: photoErrors.values) ?? (state.scanError == nil && photoErrors.isEmpty ? 200 : 422))
        default:
            break
        }
        let input = drafts[0]
        if !photoErrors.isEmpty || unfit {
            return renderer.response(
                try editor(context, folder: folder, folders: folders, drafts: drafts, errors: photoMessages, item: current, base: base), context,
                status: StorageFailure.status(of: photoErrors.values) ?? 422)
        }
        let version = form.version ?? -1
        do {
            let zone = try timeZone(member)
            let merged = try items.update(
                id, with: input, folderId: folder.id, version: version, base: sentBase?.snapshot, in: member.household,
                by: member.memberId, timeZone: zone)
            if let merged {
                // Saved together with someone else's change: the item page says so and shows the result.
                return .redirect(to: Self.mergedNotice(merged, itemId: id))
            }
            let target = context.returnPath(fallback: Route.item(id).path)
            if case .success(let values) = ItemValidation.check(input, for: folder.kind, timeZone: zone),
                ItemValidation.remindsAfterDue(values, timeZone: zone)
            {
                return .redirect(to: ListQuery.adding(["warn": "remind_after_due"], to: Route.folder(folder.id).path))
            }
            return .redirect(to: target)
        } catch let problems as ItemFormErrors {
            let errors = context.locale.messages(Self.formNames(problems))
            return renderer.response(
                try editor(context, folder: folder, folders: folders, drafts: drafts, errors: errors, item: current, base: base), context,
                status: 422)
        } catch InventoryError.conflict {
            // Both changed the same field since this form was opened: ask which to keep, lose nothing.
            let stored = try items.item(id, in: member.household)
            return renderer.response(
                try conflict(context, current: stored, mine: ItemSnapshot(input: input, folderId: folder.id), base: sentBase), context, status: 409)
        } catch {
            let storage = try storageFailure(error, context)
            let state = EditorState(storageError: context.locale[storage.text])
            return renderer.response(
                try editor(context, folder: folder, folders: folders, drafts: drafts, errors: [:], item: current, base: base, state: state),
                context, status: storage.status)
        }
    }

    /// A new photo for the item, from its page.
    func savePhoto(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        // Another household's or an unknown item is a 404 before anything is stored.
        _ = try items.item(id, in: member.household)
        do {
            guard let file = try PictureUploads.file(context.request, field: "photo_file") else {
                return renderer.response(try detail(context, itemId: id, photoError: context.locale[.photoNoFile]), context, status: 422)
            }
            let form = try context.form(ItemPhotoForm.self)
            let key = try pictures.store(file, crop: PictureUploads.crop(form.crop), in: member.household)
            try items.setPicture(id, .photo(key), in: member.household, by: member.memberId)
            return .redirect(to: Route.item(id).path + "?saved=photo")
        } catch let refusal as PictureUploads.Refusal {
            return renderer.response(
                try detail(context, itemId: id, photoError: context.locale[refusal.text]), context,
                status: StorageFailure.status(of: [refusal.text]) ?? 422)
        }
    }

    // Quick actions on one row. Each answers by going back to the row it came from
    // (`#item-N`, the notice above it), or with the row itself when a script asks.

    /// + or − on a row (`delta`); reaching zero asks what to do with the item. A step a phone
    /// made offline comes with the quantity it saw (`seen`) and its id (`intent`): see
    /// `Items.adjustQuantity` and `replayed`.
    func adjustQuantity(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let form = try context.form(QuantityStepForm.self)
        let delta = form.delta ?? .nan
        let intent = IntentId(form.intent)
        let t = context.locale
        let quantity: Double
        do {
            quantity = try items.adjustQuantity(id, by: delta, seen: form.seen, intent: intent, in: member.household, by: member.memberId)
        } catch InventoryError.validation(let fields) {
            // A hand-made step (`delta=inf`), or + past the largest quantity.
            let page = ErrorPage(status: 422, heading: t[.error422Title], message: t[problem: fields["delta"] ?? .quantityStepInvalid])
            return renderer.response(page, context, status: 422)
        } catch InventoryError.alreadyApplied {
            return try replayed(context, itemId: id, undo: nil)
        } catch InventoryError.quantityChanged(let current) {
            // Changed meanwhile by someone else: the row as it is, and a button for what the step meant.
            let mine = max(0, (((form.seen ?? current) + delta) * 1000).rounded() / 1000)
            guard RowFragment.wanted(context) else { return ListQuery.back(context, at: id, ["changed": "\(id)"]) }
            let wanted = t.quantity(mine, unit: try items.item(id, in: member.household).unit)
            return try rows.response(context, itemId: id) { row in
                let text = t.format(.noticeQuantityClash, ["name": row.name, "quantity": row.amount, "mine": wanted])
                let choice = NoticeButton(
                    label: t.format(.quantityUseMine, ["mine": wanted]), path: Route.item(id).quantity, name: "delta",
                    value: Quantity.text(((mine - current) * 1000).rounded() / 1000))
                return RowNotice(at: id, text: text, buttons: [choice])
            }
        }
        // Reaching zero asks what to do with the item (not for a step sent again from a phone: it
        // is reported in the list of what was sent, and the row shows 0).
        if quantity == 0, delta < 0, intent == nil {
            return .redirect(to: Route.item(id).empty + "?return=\(ListQuery.encoded(context.returnPath(fallback: "/") + "#item-\(id)"))")
        }
        if RowFragment.wanted(context) {
            let undo = intent.map { _ in NoticeButton(label: t[.undo], path: Route.item(id).quantity, name: "delta", value: Quantity.text(-delta)) }
            return try rows.response(context, itemId: id) { RowNotice(at: id, text: Notices.quantityNotice($0, t: t), buttons: undo.map { [$0] } ?? []) }
        }
        return ListQuery.back(context, at: id, ["changed": "\(id)"])
    }

    /// The answer to an action a phone sent again after it was applied (its first answer was lost):
    /// the row as it is now, saying so.
    func replayed(_ context: RequestContext, itemId: Item.ID, undo: NoticeButton?) throws -> Response {
        guard RowFragment.wanted(context) else { return ListQuery.back(context, at: itemId, [:]) }
        return try rows.response(context, itemId: itemId) {
            RowNotice(at: itemId, text: context.locale.format(.noticeAlreadySaved, ["name": $0.name]), buttons: undo.map { [$0] } ?? [])
        }
    }

    /// "Opened" in a stock row's menu.
    func markOpened(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        try items.markOpened(id, in: member.household, by: member.memberId)
        if RowFragment.wanted(context) {
            return try rows.response(context, itemId: id) { context.locale.format(.noticeOpened, ["name": $0.name]) }
        }
        return ListQuery.back(context, at: id, ["opened": "\(id)"])
    }

    /// Shopping lists only: "Mark urgent" / "Not urgent" in the row's menu (`urgent` = 1 or 0).
    func setUrgent(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let urgent = try context.form(UrgentForm.self).urgent
        try items.setUrgent(id, urgent, in: member.household, by: member.memberId)
        if RowFragment.wanted(context) {
            return try rows.response(context, itemId: id) { Notices.urgentNotice($0, t: context.locale) }
        }
        return ListQuery.back(context, at: id, ["urgent": urgent ? "1" : "0"])
    }

    /// A tap on a shopping row (`in_basket` = 1 or 0): saved at once, so every shopper sees it.
    func setInBasket(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let form = try context.form(BasketForm.self)
        let intent = IntentId(form.intent)
        let t = context.locale
        // Sent from a phone that was offline: the list of what was sent offers to take it back.
        let undo = intent.map { _ in NoticeButton(label: t[.undo], path: Route.item(id).basket, name: "in_basket", value: form.inBasket ? "0" : "1") }
        do {
            try items.setInBasket(id, form.inBasket, intent: intent, in: member.household, by: member.memberId)
        } catch InventoryError.alreadyApplied {
            return try replayed(context, itemId: id, undo: undo)
        }
        if RowFragment.wanted(context) {
            return try rows.response(context, itemId: id) { RowNotice(at: id, text: Notices.basketNotice($0, t: t), buttons: undo.map { [$0] } ?? []) }
        }
        return ListQuery.back(context, at: id, ["basket": form.inBasket ? "1" : "0"])
    }

    /// To the trash, with Undo in the notice.
    func trash(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let name = try items.item(id, in: member.household).name
        try items.trash([id], in: member.household, by: member.memberId)
        if RowFragment.wanted(context) {
            let text = context.locale.format(.noticeDeletedNamed, ["name": name])
            return try rows.notice(context, RowNotice(at: nil, text: text, undoIds: "\(id)"))
        }
        // Back at the neighbouring row (the delete button names it), else at the notice on top.
        return ListQuery.back(context, at: try context.form(TrashForm.self).next, ["deleted": "\(id)"])
    }

    /// A copy onto a shopping list: the one `shopping` names, the only one, or a page that asks which.
    func buyAgain(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Item.ID = try context.id()
        let lists = try items.folders(in: member.household, kind: .shopping)
        guard let target = try context.form(BuyAgainForm.self).shopping ?? (lists.count == 1 ? lists[0].id : nil) else {
            // Several shopping lists and none chosen yet: ask which.
            let item = try items.item(id, in: member.household)
            return renderer.response(ChoicePage.buyAgain(item: item, lists: lists, back: context.returnPath(fallback: "/"), t: context.locale), context)
        }
        try items.buyAgain(id, onto: target, in: member.household, by: member.memberId)
        if RowFragment.wanted(context) {
            let list = lists.first { $0.id == target }.map { displayName($0, context.locale) } ?? ""
            return try rows.response(context, itemId: id) { _ in context.locale.format(.noticeCopied, ["list": list]) }
        }
        return ListQuery.back(context, at: id, ["copied": "\(target)"])
    }

    /// The question when a quantity reaches zero: delete it, move it to a shopping list, or keep it.
    func askWhenEmpty(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let item = try items.item(try context.id(), in: member.household)
        let lists = try items.folders(in: member.household, kind: .shopping)
        let kept = try keepRules.rule(forItem: item.id, in: member.household)
        return renderer.response(
            ChoicePage.empty(item: item, lists: lists, kept: kept, back: context.returnPath(fallback: "/"), t: context.locale), context)
    }

    var rows: RowFragment { RowFragment(items: items, settings: settings, clock: clock, urls: renderer.staticURLs) }

    /// The disk refused the save (full, read-only, failing): logged with its cause, and the form
    /// comes back with everything typed and a banner. Any other error goes on to the error page.
    func storageFailure(_ error: any Error, _ context: RequestContext) throws -> StorageFailure {
        guard let storage = StorageFailure(error) else { throw error }
        logger.error("item not saved: storage \(storage)", metadata: ["route": "\(RequestLog.route(context.request))", "error": "\(error)"])
        return storage
    }

    /// Stores the photo each draft's file field carries and points the draft at it. Problems come
    /// back as message keys by "INDEX.picture".
    func attachPhotos(_ context: RequestContext, to drafts: inout [ItemInput], in scope: HouseholdScope) -> [String: TextKey] {
        var errors: [String: TextKey] = [:]
        for index in drafts.indices {
            do {
                guard let file = try PictureUploads.file(context.request, field: "d\(index).photo_file") else { continue }
                let key = try pictures.store(file, crop: PictureUploads.crop(context.field("d\(index).crop")), in: scope)
                drafts[index].picture = Picture.photo(key).formValue
            } catch {
                errors["\(index).picture"] = error.text
            }
        }
        return errors
    }

    /// Reads the barcode in the photo sent as `scan_file`. In the batch editor it goes into the first
    /// empty draft (or a new one); in the item editor into the item's barcode field.
    func scan(_ context: RequestContext, into drafts: inout [ItemInput], folder: inout Folder, batch: Bool, in scope: HouseholdScope) throws -> EditorState {
        let t = context.locale
        let found: [Barcode]
        do {
            guard let file = try PictureUploads.file(context.request, field: "scan_file") else { return EditorState(scanError: t[.scanNoFile]) }
            found = try pictures.barcodes(in: file)
        } catch {
            return EditorState(scanError: t[error.text])
        }
        guard !found.isEmpty else { return EditorState(scanError: t[.scanNoneFound]) }
        let code = found.lazy.compactMap { GTIN.scanned($0.text, isUPCE: $0.symbology == .upce) }.first
        guard let code else { return EditorState(scanError: t[.scanNotProduct]) }
        guard batch else {
            drafts[0].barcode = code
            return EditorState(scanNotice: t.format(.scanFound, ["code": code]), focus: "f-d0-barcode")
        }
        guard let index = drafts.firstIndex(where: \.isBlank) ?? (drafts.count < Self.maxDrafts ? drafts.count : nil) else {
            return EditorState(scanError: t[.scanFull])
        }
        if index == drafts.count { drafts.append(ItemInput()) }
        drafts[index].barcode = code
        let source = try remembered(&drafts, at: index, folder: &folder, in: scope)
        let notice: TextKey =
            switch source {
            case .memory: .scanFoundKnown
            case .online: .scanFoundOnline
            case nil: .scanFound
            }
        return EditorState(scanNotice: t.format(notice, ["code": code]), focus: "f-d\(index).name")
    }

    /// Fills drafts whose barcode is known and still have no name; when the last draft has a
    /// barcode, adds an empty one and moves the cursor there, so a scanner can go on scanning.
    func lookUp(_ drafts: inout [ItemInput], folder: inout Folder, errors: inout [String: TextKey], in scope: HouseholdScope) throws -> EditorState {
        // Only the newest code may be asked about online: every Enter must not ask again for all.
        let newest = drafts.indices.last { !drafts[$0].barcode.trimmingCharacters(in: .whitespaces).isEmpty }
        for index in drafts.indices {
            switch GTIN.typed(drafts[index].barcode) {
            case .empty: continue
            case .code(let code): drafts[index].barcode = code
            case let refused:
                errors["\(index).barcode"] = refused.problem?.text
                continue
            }
            if drafts[index].name.trimmingCharacters(in: .whitespaces).isEmpty {
                _ = try remembered(&drafts, at: index, folder: &folder, in: scope, online: index == newest)
            }
        }
        if let firstError = errors.keys.sorted().first, let index = Int(firstError.prefix { $0 != "." }) {
            return EditorState(focus: "f-d\(index).barcode")
        }
        if !drafts[drafts.count - 1].barcode.isEmpty, drafts.count < Self.maxDrafts {
            drafts.append(ItemInput())
        }
        return EditorState(focus: "f-d\(drafts.count - 1).barcode")
    }

    enum FillSource { case memory, online }

    /// Fills draft `index` from product memory, else (when the owner turned it on) from the online
    /// look-up; nil when neither knows the barcode. A draft alone in the batch also takes the
    /// product's usual folder.
    func remembered(_ drafts: inout [ItemInput], at index: Int, folder: inout Folder, in scope: HouseholdScope, online: Bool = true) throws -> FillSource? {
        if try products.fill(&drafts, at: index, folder: &folder, in: scope) { return .memory }
        return online && lookUpOnline(&drafts[index], in: scope) ? .online : nil
    }

    /// Name and picture from the online service, when the owner turned it on; the picture goes
    /// through the same checks as an upload. Any failure leaves the draft as it was.
    func lookUpOnline(_ draft: inout ItemInput, in scope: HouseholdScope) -> Bool {
        guard let base = try? settings.household(scope).productLookupUrl, let found = lookup.find(draft.barcode, baseURL: base) else {
            return false
        }
        draft.name = found.name
        if let url = found.imageURL, let bytes = lookup.image(url), let key = try? pictures.store(bytes: bytes, crop: nil, in: scope) {
            draft.picture = Picture.photo(key).formValue
        }
        return true
    }

    /// Drafts that hold fields `folder` does not keep, with those fields (see `fieldsNotKept`).
    static func unfit(_ drafts: [ItemInput], folder: Folder) -> [(Int, [ItemField])] {
        drafts.enumerated().compactMap { index, draft in
            let fields = draft.fieldsNotKept(in: folder.kind)
            return fields.isEmpty ? nil : (index, fields)
        }
    }

    /// "Save without them" ticked: the person chose to drop the fields the folder does not keep.
    static func discardUnfit(_ chosen: Bool, _ drafts: inout [ItemInput], folder: Folder) {
        guard chosen else { return }
        for index in drafts.indices { drafts[index].dropFieldsNotKept(in: folder.kind) }
    }

    /// The batch editor's messages by field: a draft with something typed but no name can also be
    /// removed, and its message says so.
    static func batchMessages(_ errors: [String: TextKey], drafts: [ItemInput], t: Catalog) -> [String: String] {
        var messages: [String: String] = [:]
        for (field, key) in errors {
            let parts = field.split(separator: ".", maxSplits: 1)
            let draft = parts.count == 2 ? Int(parts[0]) : nil
            let typed = draft.map { drafts.indices.contains($0) && !drafts[$0].isBlank } ?? false
            messages[field] = t[key == .itemNameRequired && typed ? .draftNameRequired : key]
        }
        return messages
    }

    func timeZone(_ member: SignedIn) throws -> TimeZone {
        TimeZone(identifier: member.timeZone) ?? .gmt
    }

    /// The errors by the names the editor gives them ("1.name": the second draft's name), with their words.
    static func formNames(_ errors: ItemFormErrors) -> [String: TextKey] {
        var named: [String: TextKey] = [:]
        for (draft, fields) in errors.drafts {
            for (field, problem) in fields { named["\(draft).\(field.rawValue)"] = problem.text }
        }
        return named
    }

    /// Drafts from fields named `d0.name`, `d1.quantity`, … in index order.
    static func drafts(from form: Parameters) -> [ItemInput] {
        var drafts: [Int: ItemInput] = [:]
        for (name, value) in form.pairs {
            guard name.hasPrefix("d"), let dot = name.firstIndex(of: "."), let index = Int(name[name.index(after: name.startIndex)..<dot]),
                (0..<maxDrafts).contains(index)
            else { continue }
            var draft = drafts[index] ?? ItemInput()
            ItemField(rawValue: String(name[name.index(after: dot)...]))?.set(value, in: &draft)
            drafts[index] = draft
        }
        let ordered = drafts.keys.sorted().map { drafts[$0]! }
        return ordered.isEmpty ? [ItemInput()] : ordered
    }

    func editor(
        _ context: RequestContext, folder: Folder, folders: [Folder], drafts: [ItemInput], errors: [String: String], item: Item? = nil,
        base: EditBase? = nil, state: EditorState = EditorState()
    ) throws -> EditorPage {
        let t = context.locale
        var state = state
        // Fields typed for the other kind of folder stay on the form, with the question beside the select.
        let unfit = Self.unfit(drafts, folder: folder)
        let fieldsKind: FolderKind = unfit.isEmpty ? folder.kind : (folder.kind == .stock ? .shopping : .stock)
        if !unfit.isEmpty {
            state.unfit = UnfitNotice(
                message: t.format(.editorUnfit, folder.kind.rawValue, ["folder": displayName(folder, t)]),
                drafts: unfit.map { index, fields in
                    let labels = fields.map { t[.field, $0.rawValue] }.joined(separator: t[.editorUnfitSeparator])
                    return item == nil
                        ? t.format(.editorUnfitDraft, ["draft": t.format(.draftNumber, ["number": "\(index + 1)"]), "fields": labels]) : labels
                })
        }
        let today = items.today(in: try timeZone(context.signedIn))
        let draftViews = drafts.enumerated().map { index, draft in
            DraftView(
                index: index, input: draft, fieldsKind: fieldsKind, errors: errors, today: today, t: t, urls: renderer.staticURLs,
                single: item != nil, focus: state.focus)
        }
        let stock = folders.filter { $0.kind == .stock }.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: $0.id == folder.id) }
        let shopping = folders.filter { $0.kind == .shopping }.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: $0.id == folder.id) }
        let failed = errors.keys.compactMap { Int($0.split(separator: ".").first ?? "") }
        // The summary links to the first draft that needs a change: on a phone it can be far down.
        let firstFailed = failed.min().map { "#draft-\($0)" }
        let heading = item == nil ? t[.editorNewHeading] : t.format(.editorEditHeading, ["name": item!.name])
        return EditorPage(
            heading: heading, action: item.map { Route.item($0.id).path } ?? Route.newItem, isNew: item == nil,
            version: base?.version ?? item?.version, base: base?.hiddenFields ?? [], stockFolders: stock, shoppingFolders: shopping,
            unfitShoppingText: t[.editorUnfitShopping], unfitStockText: t[.editorUnfitStock], drafts: draftViews,
            canAddDraft: item == nil && drafts.count < Self.maxDrafts,
            summary: state.storageError ?? (errors.isEmpty ? nil : t.count(.editorErrors, Set(failed).count)),
            summaryLink: state.storageError == nil ? firstFailed : nil,
            returnTo: context.request.query["return"] ?? context.request.form["return"] ?? "",
            cancel: item.map { Route.item($0.id).path } ?? Route.folder(folder.id).path, state: state, maxBodyBytes: maxBodyBytes,
            // Suggestions only: a database that cannot be read (the form comes back refused) still
            // gives the form with what was typed.
            knownNames: ((try? items.knownNames(in: context.signedIn.household, stockFolderId: folder.kind == .stock ? folder.id : nil)) ?? []).map {
                EditorPage.KnownNameOption($0, urls: renderer.staticURLs)
            })
    }

    /// The page for a save that clashed: who changed the item since the form was opened and when,
    /// one choice per field both changed (mine preselected), and every other field already merged.
    /// Saving posts the choices against the version now stored, with that version as the new base.
    func conflict(_ context: RequestContext, current: Item, mine: ItemSnapshot, base: EditBase?) throws -> ConflictPage {
        let t = context.locale
        let member = try context.signedIn
        let zone = try timeZone(member)
        let theirs = ItemSnapshot(current, timeZone: zone)
        let folders = try items.folders(in: member.household)
        let merge = ItemMerge(
            base: base?.snapshot, mine: mine, theirs: theirs,
            folderKinds: Dictionary(folders.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first }))
        let kind = folders.first { $0.id == merge.merged.folderId }?.kind ?? .stock
        let shown = ConflictValues(t: t, zone: zone, timeZoneId: member.timeZone, folders: folders)
        func formName(_ field: ItemMerge.Field) -> String { field == .folder ? "folder" : "d0.\(field.rawValue)" }

        let clashes = merge.clashes.map { field in
            ConflictPage.Clash(
                label: shown.label(field), name: formName(field), id: "clash-\(field.rawValue)",
                theirs: .init(value: ItemMerge.value(field, theirs), shown: shown.text(field, theirs)),
                mine: .init(value: ItemMerge.value(field, mine), shown: shown.text(field, mine)))
        }
        let rows = ItemMerge.Field.allCases.filter { !merge.clashes.contains($0) && shown.applies($0, to: kind) }.map { field in
            ConflictPage.Row(
                label: shown.label(field), value: shown.text(field, merge.merged),
                source: merge.takenFromTheirs.contains(field)
                    ? t[.conflictTheirChange] : merge.takenFromMine.contains(field) ? t[.conflictYourChange] : nil)
        }
        // The stored version becomes the base: if it changes again before this is sent, the merge runs again.
        var hidden = [FormField.hidden("version", "\(current.version)"), .hidden("return", context.field("return"))]
        hidden += EditBase(current, timeZone: zone).hiddenFields
        hidden += ItemMerge.Field.allCases.filter { !merge.clashes.contains($0) }.map { .hidden(formName($0), ItemMerge.value($0, merge.merged)) }

        // Who changed it since the form was opened (the latest change when that is not known).
        let since = try base?.snapshot.updatedAt.map { try items.history(of: current.id, since: $0, in: member.household) } ?? []
        let changes = since.isEmpty ? Array(try items.history(of: current.id, in: member.household).prefix(1)) : since
        let events = changes.map { event in
            ItemPage.Event(
                what: t[.history, event.kind], detail: Self.historyDetail(event, t), who: event.memberName ?? t[.historySomeone],
                when: DisplayFormat.dateTime(event.at, timeZone: member.timeZone, locale: t))
        }
        return ConflictPage(
            heading: t[.conflictHeading], itemId: current.id,
            message: merge.hasClashes ? t.count(.conflictChoose, merge.clashes.count) : t[.conflictNothingToChoose],
            events: events, clashes: clashes, rows: rows, hidden: hidden)
    }

    /// Where a save merged without a clash goes: the item page, naming whose change it was merged with.
    static func mergedNotice(_ merged: MergedEdit, itemId: Item.ID) -> String {
        var query = "merged=\(merged.merge.takenFromTheirs.map(\.rawValue).joined(separator: ","))"
        if let event = merged.latestEventId { query += "&by=\(event)" }
        return Route.item(itemId).path + "?\(query)"
    }

    /// "Merged with Ken's change to Due date": the fields from the query (known ones only), the name
    /// from the item's own history, so the address cannot put words in the page.
    func mergedNotice(_ context: RequestContext, item: Item, history: [ItemEvent]) -> String? {
        guard let fields = context.request.query["merged"] else { return nil }
        let t = context.locale
        let labels = fields.split(separator: ",").compactMap { ItemMerge.Field(rawValue: String($0)) }.map { ConflictValues.labelKey($0) }.map { t[named: $0] }
        let event = ItemEvent.ID(context.request.query["by"] ?? "").flatMap { id in history.first { $0.id == id } }
        let who = event?.memberName ?? t[.historySomeone]
        return labels.isEmpty ? t[.mergedNoticeNothing] : t.format(.mergedNotice, ["name": who, "fields": labels.joined(separator: ", ")])
    }

    /// `keep`: the keep form as typed and its mistakes, when a save of it was refused.
    func detail(
        _ context: RequestContext, itemId: Item.ID, photoError: String? = nil, keep typedKeep: (form: KeepForm, errors: [String: String])? = nil
    ) throws -> ItemPage {
        let t = context.locale
        let member = try context.signedIn
        // One snapshot: the item, the household, the item's folder and its history.
        let contents = try items.itemPage(itemId, in: member.household)
        let (item, folder, events) = (contents.item, contents.folder, contents.history)
        let window = DueWindow(household: contents.household, now: clock.now())
        let row = ItemRowView(item, window: window, t: t, urls: renderer.staticURLs)
        var facts: [ItemPage.Fact] = [
            .init(label: t[.fieldFolder], value: displayName(folder, t)),
            .init(label: t[.fieldQuantity], value: row.amount),
            .init(label: t[.fieldKind], value: row.kind),
        ]
        if let status = row.status { facts.append(.init(label: t[.fieldStatus], value: status)) }
        if let due = row.due { facts.append(.init(label: t[.fieldDue], value: due + (row.dueWord.map { " · \($0)" } ?? ""))) }
        if let remind = item.remindAt {
            facts.append(.init(label: t[.fieldRemindAt], value: DisplayFormat.dateTime(remind, timeZone: member.timeZone, locale: t)))
        }
        if folder.kind == .shopping { facts.append(.init(label: t[.fieldUrgent], value: item.urgent ? t[.urgent] : t[.notUrgent])) }
        if let barcode = item.barcode { facts.append(.init(label: t[.fieldBarcode], value: barcode)) }
        if !item.note.isEmpty { facts.append(.init(label: t[.fieldNote], value: item.note)) }
        facts.append(.init(label: t[.fieldUpdated], value: DisplayFormat.dateTime(item.updatedAt, timeZone: member.timeZone, locale: t)))
        let undos = try cookUndo?.notes(for: events, itemId: item.id, in: member.household, canWrite: member.role.canWrite, t: t) ?? [:]
        let history = events.map { event in
            ItemPage.Event(
                what: t[.history, event.kind], detail: Self.historyDetail(event, t),
                who: event.memberName ?? t[.historySomeone], when: DisplayFormat.dateTime(event.at, timeZone: member.timeZone, locale: t),
                undoCook: event.cookId.flatMap { undos[$0] })
        }
        let picture = item.picture
        let pictureAlt: String
        switch picture {
        case .illustration(let slug): pictureAlt = t[.illustration, slug]
        case .photo: pictureAlt = t.format(.photoOf, ["name": item.name])
        case nil: pictureAlt = ""
        }
        let keep =
            member.role.canWrite
            ? KeepSection(item: item, rule: try keepRules.rule(forItem: item.id, in: member.household), typed: typedKeep, t: t) : nil
        let saved = ["photo": t[.photoSaved], "keep": t[.keepSaved], "keep-stopped": t[.keepStopped]][context.request.query["saved"] ?? ""]
        return ItemPage(
            name: item.name, id: item.id, picture: renderer.staticURLs.picture(picture, size: .large, kind: item.kind), hasPicture: picture != nil,
            pictureAlt: pictureAlt, dueState: row.dueState, facts: facts, history: history, folderId: folder.id,
            canWrite: member.role.canWrite, photoError: photoError,
            saved: saved ?? (context.request.query["undone"] == "1" ? t[.cookUndone] : mergedNotice(context, item: item, history: events)),
            recipesLink: folder.kind == .stock ? RecipesQuery.forIngredient(item.name) : nil, keep: keep)
    }

    static func historyDetail(_ event: ItemEvent, _ t: Catalog) -> String? {
        if let step = event.folders {
            // Named now, in the reader's language: 冷蔵庫 for a Japanese reader of the starter "Fridge".
            func name(_ place: FolderStep.Place?) -> String {
                place.map { displayName($0.name, starter: $0.starter, t) } ?? t[.historyFolderGone]
            }
            let folders = t.format(.historyFolderStep, ["from": name(step.from), "to": name(step.to)])
            return event.detail.isEmpty ? folders : t.format(.historyFolderStepDetail, ["folders": folders, "detail": event.detail])
        }
        guard !event.detail.isEmpty else { return nil }
        if event.kind == "changed" {
            return event.detail.split(separator: ",").map { t[.field, $0 == "name" ? "item_name" : String($0)] }.joined(separator: ", ")
        }
        return event.detail
    }
}
