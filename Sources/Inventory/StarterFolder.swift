/// A folder a new household starts with.
public struct StarterFolder: Sendable, Equatable {
    /// The language catalogs' key for its name ("starter_fridge").
    public let key: String
    public let kind: FolderKind
    public let icon: String
    /// The name when no catalog is at hand (the command line without Templates/, tests).
    public let fallbackName: String
}
