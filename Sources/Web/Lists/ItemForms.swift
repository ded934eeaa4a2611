import Inventory

/// The forms `ItemsController` reads, field by field (decoded by `FormDecoder`). The drafts'
/// own fields (`d0.name`, …) are `ItemInput`'s, read by `ItemsController.drafts(from:)`.

/// The batch editor's buttons and choices around its drafts.
struct BatchEditorForm: Decodable {
    /// The folder the drafts go into.
    var folder: Folder.ID?
    /// Which button: save (the default), add, switch, scan, lookup, or Enter in a field.
    var action: String
    /// "Remove" beside a draft: the draft's position, sent instead of an action.
    var remove: String?
    /// "Save without them": drop the fields the folder does not keep.
    var discardUnfit: Bool
}

/// The item editor's buttons and choices around its one draft.
struct ItemEditorForm: Decodable {
    var folder: Folder.ID?
    /// switch, scan, or save (anything else).
    var action: String
    /// The item's version the form was opened with.
    var version: Int?
    var discardUnfit: Bool
}

/// A photo for the item, from its page: the file comes as `photo_file`.
struct ItemPhotoForm: Decodable {
    /// The square the person chose (see `PictureUploads.crop`).
    var crop: String
}

/// + or − on a row; from a page that may be old (a phone that was offline), with the quantity
/// the step was made on and the id the phone gave the step (see `IntentId`).
struct QuantityStepForm: Decodable {
    var delta: Double?
    var seen: Double?
    var intent: String?
}

/// "Mark urgent" (1) or "Not urgent" (0).
struct UrgentForm: Decodable {
    var urgent: Bool
}

/// A shopping row's basket tap: `in_basket` = 1 puts it in, 0 takes it out.
struct BasketForm: Decodable {
    var inBasket: Bool
    /// The id a phone gave the tap (see `IntentId`).
    var intent: String?

    enum CodingKeys: String, CodingKey {
        case inBasket = "in_basket"
        case intent
    }
}

/// "Add to the list" on a shopping list: a name, and optionally how many in which unit.
struct ListAddForm: Decodable {
    var name: String
    var quantity: String?
    var unit: String?
    /// The id a phone gave the addition (see `IntentId`).
    var intent: String?
}

/// The delete button names the neighbouring row, to go back to.
struct TrashForm: Decodable {
    var next: Item.ID?
}

/// The shopping list a copy goes onto (none yet: asked when there are several).
struct BuyAgainForm: Decodable {
    var shopping: Folder.ID?
}
