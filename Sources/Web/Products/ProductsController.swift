import HTTPServer
import Inventory

/// The products page: what the household learned from barcodes, to correct or forget.
struct ProductsController {
    let products: Products
    let items: Items
    let pictures: PictureUploads
    let renderer: Renderer

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.products, .signedIn, use: list)
        router.get(Route.Product.pattern.path, .writer, use: editForm)
        router.post(Route.Product.pattern.path, .writer, uploads: true, use: save)
        router.post(Route.Product.pattern.forget, .writer, use: forget)
    }

    /// Every product the household's scans taught it.
    func list(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let folders = Dictionary(uniqueKeysWithValues: try items.folders(in: member.household).map { ($0.id, displayName($0, t)) })
        let keeps = try products.usualShelfLives(in: member.household)
        let rows = try products.all(in: member.household).map { product in
            ProductsPage.Row(
                id: product.id, name: product.name, barcode: product.barcode,
                picture: renderer.staticURLs.picture(product.picture, size: .small, kind: product.kind), hasPicture: product.picture != nil,
                details: [
                    t[.kind, product.kind], t[.unit, product.unit], product.folderId.flatMap { folders[$0] },
                    keeps[product.barcode].map { t.count(.productsKeeps, $0) },
                ].compactMap { $0 }.joined(separator: " · "))
        }
        let notice = context.request.query["done"].flatMap { ["forgotten": t[.productsForgotten], "saved": t[.productsSaved]][$0] }
        return renderer.response(ProductsPage(rows: rows, notice: notice), context)
    }

    /// One product's form.
    func editForm(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let product = try products.product(try context.id(), in: member.household)
        return renderer.response(try form(context, product, input: ProductInput(product), errors: [:]), context)
    }

    /// The product as corrected; a photo sent is stored first, so the form shown again keeps it.
    func save(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let product = try products.product(try context.id(), in: member.household)
        var input = try context.form(ProductInput.self)
        var errors: [String: TextKey] = [:]
        do throws(PictureUploads.Refusal) {
            if let file = try PictureUploads.file(context.request, field: "photo_file") {
                input.picture =
                    Picture.photo(try pictures.store(file, crop: PictureUploads.crop(input.crop), in: member.household)).formValue
            }
        } catch {
            errors["picture"] = error.text
        }
        if errors.isEmpty {
            do {
                try products.update(
                    product.id, name: input.name, kind: input.kind, unit: input.unit, folderId: Folder.ID(input.folder),
                    picture: Picture(formValue: input.picture), shelfLife: input.shelfLife, in: member.household)
                return .redirect(to: Route.products + "?done=saved")
            } catch InventoryError.validation(let fields) {
                errors = fields.mapValues(\.text)
            }
        }
        return renderer.response(
            try form(context, product, input: input, errors: context.locale.messages(errors)), context,
            status: StorageFailure.status(of: errors.values) ?? 422)
    }

    /// The product forgotten: the next scan of its barcode asks again.
    func forget(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try products.forget(try context.id(), in: member.household)
        return .redirect(to: Route.products + "?done=forgotten")
    }

    func form(_ context: RequestContext, _ product: Product, input: ProductInput, errors: [String: String]) throws -> ProductPage {
        let t = context.locale
        let member = try context.signedIn
        let folders = try items.folders(in: member.household)
        var draft = ItemInput()
        draft.picture = input.picture
        draft.kind = input.kind
        let fields = [
            FormField(name: "name", label: t[.fieldItemName], value: input.name, error: errors["name"], autocomplete: "off", required: true, maxLength: 100),
            FormField(
                name: "kind", label: t[.fieldKind], kind: .select, error: errors["kind"],
                options: ItemKind.allCases.map { .init(value: $0.rawValue, label: t[.kind, $0], selected: $0.rawValue == input.kind) }),
            FormField(
                name: "unit", label: t[.fieldUnit], kind: .select, error: errors["unit"],
                options: ItemUnit.allCases.map { .init(value: $0.rawValue, label: t[.unit, $0], selected: $0.rawValue == input.unit) }),
            FormField(
                name: "folder", label: t[.productsUsualFolder], kind: .select,
                options: [.init(value: "", label: t[.productsFolderNone], selected: input.folder.isEmpty)]
                    + folders.map { .init(value: "\($0.id)", label: displayName($0, t), selected: "\($0.id)" == input.folder) }),
            FormField(
                name: "shelf_life", label: t[.productsShelfLife], value: input.shelfLife, error: errors["shelf_life"],
                hint: try products.learnedShelfLife(of: product, in: member.household).map { t.format(.productsShelfLifeLearned, ["days": "\($0)"]) }
                    ?? t[.productsShelfLifeNothing],
                autocomplete: "off", maxLength: 5, inputMode: "numeric"),
        ]
        return ProductPage(
            heading: t.format(.productsEditHeading, ["code": product.barcode]), id: product.id, fields: fields,
            picture: PicturePicker(index: 0, input: draft, error: errors["picture"], t: t, urls: renderer.staticURLs, fieldPrefix: ""))
    }
}

struct ProductsPage: CompiledPage {
    struct Row: Sendable {
        let id: Product.ID
        let name: String
        let barcode: String
        let picture: String
        let hasPicture: Bool
        let details: String
    }

    let rows: [Row]
    let notice: String?

    func title(_ t: Catalog) -> String { t[.productsHeading] }

    var hasRows: Bool { !rows.isEmpty }
}

struct ProductPage: CompiledPage {
    let heading: String
    let id: Product.ID
    let fields: [FormField]
    let picture: PicturePicker

    func title(_ t: Catalog) -> String { heading }
}
