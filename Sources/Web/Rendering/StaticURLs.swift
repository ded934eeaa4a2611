import HTTPServer
import Inventory

/// The address of a public file on a page, the one place pages, templates and view models take
/// it from: `/static/<path>?v=<the content's hash>` (`StaticFiles.version(of:)`). A browser keeps
/// such an address for a year without asking again; an edited file gets a new address on the next
/// page. A file the server does not keep in memory, or no folder at all (tests of templates
/// alone), gives the plain address, which is revalidated on every use.
struct StaticURLs: Sendable {
    let files: StaticFiles?

    /// `path` below `Public/` (`css/app.css`).
    func callAsFunction(_ path: String) -> String {
        let plain = SystemController.staticPrefix + path
        guard let version = files?.version(of: path) else { return plain }
        return plain + "?v=" + version
    }

    /// A folder icon by its name (`fridge`).
    func folderIcon(_ name: String) -> String { self("icons/folders/\(name).svg") }

    func illustration(_ slug: String) -> String { self("illustrations/\(slug).svg") }

    /// A picture's address: photos through `/photos`, illustrations as public files; without a
    /// picture, the icon of `kind` (the box when there is no kind).
    func picture(_ picture: Picture?, size: PhotoSize, kind: ItemKind?) -> String {
        switch picture {
        case .photo(let key): Route.photo(key, "\(size.rawValue)")
        case .illustration(let slug): illustration(slug)
        case nil: folderIcon(ItemRowView.icon(forKind: kind))
        }
    }
}

/// The public files every page's layout names.
struct LayoutFiles {
    let urls: StaticURLs

    var stylesheet: String { urls("css/app.css") }
    var script: String { urls("js/app.js") }
    var manifest: String { urls("manifest.webmanifest") }
    var logo: String { urls("icons/zaiko.svg") }
}
