import Foundation
import HTTPServer
import Inventory
import Logging
import Outbound
import RecipeImport

/// Importing a recipe from a web address or pasted text: read it (schema.org Recipe, or plain
/// text), store its picture through the photo pipeline, keep the result as a draft and open the
/// recipe editor on it (`/recipes/new?draft=<token>`), where the person checks it before saving.
struct RecipeImportController {
    /// Pasted text, the HTML of a whole page included; the server keeps at most 1 MB of form text in memory.
    static let maxTextBytes = 900 * 1024

    /// Where the member's fetch may go depends on the household (see `MemberFetches`).
    let fetches: MemberFetches
    let settings: HouseholdSettings
    let fetchLimits: (timeout: TimeInterval, budget: Duration)
    let pictures: PictureUploads
    let drafts: PendingRecipeDrafts
    let renderer: Renderer
    let logger: Logger

    /// Registers the routes; returns the drafts, which the recipe editor takes from.
    @discardableResult
    func register(in router: inout Router<Endpoint>) -> PendingRecipeDrafts {
        router.get(Route.Recipes.importer, .writer, use: form)
        // `uploads`: a pasted page is larger than a form's usual limit (it is still read as form text).
        router.post(Route.Recipes.importer, .writer, uploads: true, use: read)
        return drafts
    }

    /// The empty import form: a web address, or pasted text.
    func form(_ context: RequestContext) throws -> Response {
        renderer.response(RecipeImportPage(), context)
    }

    /// Reads the recipe and opens the editor on it, or shows the form with why not.
    func read(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let form = try context.form(RecipeImportForm.self)
        var page = RecipeImportPage(address: form.url, text: form.text.text)
        let household = try settings.household(member.household)
        let fetcher = RecipeFetcher(
            client: fetches.client(ownerAllowsPrivate: household.memberFetchesPrivate), timeout: fetchLimits.timeout, budget: fetchLimits.budget)
        let fetched: FetchedRecipe
        if form.source == "text" {
            let text = page.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return refuse(&page, text: t[.recipeImportTextMissing], context) }
            guard text.utf8.count <= Self.maxTextBytes else {
                return refuse(&page, text: t.format(.recipeImportTextTooLarge, ["size": String(Self.maxTextBytes / 1024)]), context)
            }
            guard let recipe = RecipeDocument.read(text: text) else { return refuse(&page, text: t[.recipeImportTextNoRecipe], context) }
            fetched = FetchedRecipe(recipe: recipe, image: recipe.imageURL == nil ? nil : waitForTask { await fetcher.image(recipe.imageURL) })
        } else {
            guard !page.address.isEmpty else { return refuse(&page, address: t[.recipeImportUrlMissing], context) }
            let address = page.address
            switch waitForTask({ () async -> Result<FetchedRecipe, RecipeFetchError> in
                do throws(RecipeFetchError) { return .success(try await fetcher.fetch(address)) } catch { return .failure(error) }
            }) {
            case .success(let recipe): fetched = recipe
            case .failure(let error):
                logger.notice("recipe import failed", metadata: ["reason": "\(error)"])
                return refuse(&page, address: Self.message(error, t), context)
            }
        }
        var photoKey: String?
        if let image = fetched.image {
            do {
                photoKey = try pictures.store(bytes: image, crop: nil, in: member.household)
            } catch {
                // The recipe is still worth checking; its picture can be chosen in the editor.
                logger.notice("recipe picture not stored", metadata: ["reason": "\(error.text.name)"])
            }
        }
        guard let token = drafts.keep(RecipeInput(imported: fetched.recipe, picture: photoKey.map(Picture.photo)), for: member) else {
            // No room to keep the draft until the editor opens (see `SessionBoundStore`).
            page.textError = form.source == "text" ? t[.pendingStoreFull] : nil
            page.addressError = form.source == "text" ? nil : t[.pendingStoreFull]
            return renderer.response(page, context, status: 503)
        }
        return .redirect(to: Route.Recipes.new + "?draft=\(token)")
    }

    private func refuse(_ page: inout RecipeImportPage, address: String? = nil, text: String? = nil, _ context: RequestContext) -> Response {
        page.addressError = address
        page.textError = text
        return renderer.response(page, context, status: 422)
    }

    static func message(_ error: RecipeFetchError, _ t: Catalog) -> String {
        switch error {
        case .badAddress: return t[.recipeImportUrlInvalid]
        case .refusedAddress: return t[.recipeImportUrlRefused]
        case .unreachable: return t[.recipeImportUrlUnreachable]
        case .status(let status): return t.format(.recipeImportUrlStatus, ["status": String(status)])
        case .movedElsewhere(let url): return t.format(.recipeImportUrlMoved, ["address": url.absoluteString])
        case .notAPage: return t[.recipeImportUrlNotPage]
        case .tooLarge: return t.format(.recipeImportUrlTooLarge, ["size": String(RecipeFetcher.maxPageBytes / 1024 / 1024)])
        case .noRecipe: return t[.recipeImportUrlNoRecipe]
        }
    }
}
