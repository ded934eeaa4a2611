/// What the domain reports; `Web` turns each into a page.
public enum InventoryError: Error, Equatable, CustomStringConvertible {
    case notFound
    /// What is wrong, by form field name.
    case validation([String: FieldProblem])
    /// Someone else changed the record since it was read.
    case conflict
    case corruptDatabase(path: String, detail: String)
    /// An action a phone sent again (same `IntentId`) that was applied the first time: nothing done.
    case alreadyApplied
    /// A quick action made on a quantity the phone saw, which someone else changed to `current`
    /// meanwhile (and not to what the action would make it): nothing done, the person decides.
    case quantityChanged(current: Double)

    public var description: String {
        switch self {
        case .notFound: return "not found"
        case .validation(let fields): return "invalid: \(fields.keys.sorted().joined(separator: ", "))"
        case .conflict: return "changed by someone else"
        case .alreadyApplied: return "applied before"
        case .quantityChanged(let current): return "quantity changed meanwhile to \(current)"
        case .corruptDatabase(let path, let detail):
            return "The database \(path) is damaged (\(detail)). Restore it from a backup; Zaiko will not repair it silently."
        }
    }
}
