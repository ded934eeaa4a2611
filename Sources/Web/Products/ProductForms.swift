import Inventory

/// The product form `ProductsController` reads, as typed (decoded by `FormDecoder`).
struct ProductInput: Decodable {
    var name: String
    var kind: String
    var unit: String
    /// The usual folder's id; empty for none.
    var folder: String
    var picture: String
    /// The square the person chose for a photo sent as `photo_file` (see `PictureUploads.crop`).
    var crop = ""
    /// The days it keeps as typed; empty: learned from registrations.
    var shelfLife = ""

    init(_ product: Product) {
        name = product.name
        kind = product.kind.rawValue
        unit = product.unit.rawValue
        folder = product.folderId.map { "\($0)" } ?? ""
        picture = product.picture?.formValue ?? ""
        shelfLife = product.shelfLifeDays.map(String.init) ?? ""
    }
}
