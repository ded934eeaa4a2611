import Foundation

/// An item's or product's picture: a photo stored by `PhotoStore`, or a built-in illustration.
public enum Picture: Sendable, Equatable, Hashable {
    case photo(String)
    case illustration(String)

    /// As a form carries it: "photo:KEY" or "illustration:SLUG".
    public init?(formValue: String) {
        if formValue.hasPrefix("photo:") {
            let key = String(formValue.dropFirst(6))
            guard PhotoStore.isWellFormedKey(key) else { return nil }
            self = .photo(key)
        } else if formValue.hasPrefix("illustration:") {
            let slug = String(formValue.dropFirst(13))
            guard Illustrations.slugs.contains(slug) else { return nil }
            self = .illustration(slug)
        } else {
            return nil
        }
    }

    public var formValue: String {
        switch self {
        case .photo(let key): return "photo:\(key)"
        case .illustration(let slug): return "illustration:\(slug)"
        }
    }

    var photoKey: String? { if case .photo(let key) = self { key } else { nil } }
    var illustrationSlug: String? { if case .illustration(let slug) = self { slug } else { nil } }
}

/// The sample illustrations drawn for Zaiko (`Public/illustrations/<slug>.svg`), in picker order,
/// each with the kind of item it usually stands for.
public enum Illustrations {
    public static let all: [(slug: String, kind: String)] = [
        ("milk", "dairy_eggs"), ("eggs", "dairy_eggs"), ("cheese", "dairy_eggs"), ("yogurt", "dairy_eggs"), ("butter", "dairy_eggs"),
        ("meat", "meat"), ("fish", "fish"), ("vegetables", "vegetables"), ("fruit", "fruit"),
        ("bread", "other"), ("rice", "other"), ("noodles", "other"), ("pasta", "other"), ("tofu", "other"), ("natto", "other"),
        ("canned", "other"), ("frozen", "prepared"), ("prepared", "prepared"), ("snacks", "other"), ("ice-cream", "dairy_eggs"),
        ("water", "drinks"), ("juice", "drinks"), ("tea", "drinks"), ("coffee", "drinks"), ("beer", "drinks"), ("wine", "drinks"),
        ("soy-sauce", "seasonings"), ("seasoning", "seasonings"), ("oil", "seasonings"), ("miso", "seasonings"), ("sugar", "seasonings"),
        ("detergent", "other"), ("dish-soap", "other"), ("toilet-paper", "other"), ("tissues", "other"), ("kitchen-paper", "other"),
        ("trash-bags", "other"), ("sponge", "other"), ("shampoo", "other"), ("toothpaste", "other"), ("medicine", "other"),
        ("batteries", "other"), ("light-bulb", "other"), ("pet-food", "other"),
    ]
    public static let slugs: Set<String> = Set(all.map(\.slug))
}
