/// How much of a JSON-LD document one import looks at, so that no page or paste can hold a server
/// thread: every walk goes at most `maxDepth` levels below where it starts, and the walks of one
/// import together look at no more than `maxValues` values. Past either, the rest is read as if it
/// were not there (a `recipeYield` nested 60 deep gives no servings, not a thread at 100 % CPU).
///
/// JSON is a tree and each walk looks at a value once, so the work of an import is at most
/// `maxValues` steps whatever the document's shape; the document's size is bounded before it is
/// parsed (`RecipeFetcher.maxPageBytes`, the import form's limit on pasted text).
struct JSONLDBudget {
    /// Deeper than any recipe: a `HowToSection` in a `HowToSection` of `HowToStep`s is 6 levels.
    static let maxDepth = 8
    /// Far more than a recipe page's JSON-LD holds (a large `@graph` has a few thousand values).
    static let maxValues = 50_000

    /// Values looked at so far.
    private(set) var visited = 0

    /// Whether a value `depth` levels below a walk's start may be looked at (it is then counted).
    mutating func visit(depth: Int) -> Bool {
        guard depth <= Self.maxDepth, visited < Self.maxValues else { return false }
        visited += 1
        return true
    }
}
