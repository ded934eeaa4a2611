/// Previous / "Page 2 of 8" / Next under a paged page (`partials/pager`): the list, use soon,
/// a calendar day and the recipes make it the same way, each with its own addresses.
struct Pager: Sendable {
    let pageLabel: String
    let previous: String?
    let next: String?

    /// The pager only shows when there is another page to go to.
    var hasPages: Bool { previous != nil || next != nil }
}

extension Pager {
    /// Page `page` of `pages` (already within 1…pages); `link` is a page's address with the
    /// page's filters kept.
    init(page: Int, of pages: Int, t: Catalog, link: (Int) -> String) {
        self.init(
            pageLabel: t.format(.pageOf, ["page": "\(page)", "pages": "\(pages)"]),
            previous: page > 1 ? link(page - 1) : nil,
            next: page < pages ? link(page + 1) : nil)
    }
}
