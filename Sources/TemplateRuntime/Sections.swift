/// What a section (`{{#name}}`) and an inverted section (`{{^name}}`) do with each kind of value.
/// Chosen by overload on the value's static type; no reflection, no casts.
public enum Section {
    // MARK: The values a section runs for (once, never, or once per element).

    @inlinable public static func values(_ value: Bool) -> Once<Bool> { Once(value ? true : nil) }
    @inlinable public static func values(_ value: Bool?) -> Once<Bool> { Once(value == true ? true : nil) }
    /// An empty string counts as false.
    @inlinable public static func values(_ value: String) -> Once<String> { Once(value.isEmpty ? nil : value) }
    @inlinable public static func values(_ value: String?) -> Once<String> { Once(value?.isEmpty == false ? value : nil) }
    @inlinable public static func values<Value>(_ value: Value?) -> Once<Value> { Once(value) }
    @inlinable public static func values<Values: Sequence>(_ value: Values) -> Values { value }

    // MARK: Whether an inverted section shows.

    @inlinable public static func isEmpty(_ value: Bool) -> Bool { !value }
    @inlinable public static func isEmpty(_ value: Bool?) -> Bool { value != true }
    @inlinable public static func isEmpty(_ value: String) -> Bool { value.isEmpty }
    @inlinable public static func isEmpty(_ value: String?) -> Bool { value?.isEmpty != false }
    @inlinable public static func isEmpty<Value>(_ value: Value?) -> Bool { value == nil }
    @inlinable public static func isEmpty<Values: Collection>(_ value: Values) -> Bool { value.isEmpty }

    // MARK: Dotted names (`{{me.canWrite}}`): through an optional, nil stays nil.

    @inlinable public static func member<Value, Member>(_ value: Value, _ path: KeyPath<Value, Member>) -> Member {
        value[keyPath: path]
    }
    @inlinable public static func member<Value, Member>(_ value: Value?, _ path: KeyPath<Value, Member>) -> Member? {
        value.map { $0[keyPath: path] }
    }
    @inlinable public static func member<Value, Member>(_ value: Value?, _ path: KeyPath<Value, Member?>) -> Member? {
        value.flatMap { $0[keyPath: path] }
    }
}

/// Zero or one value, as a sequence a section's `for` loop runs over.
public struct Once<Value>: Sequence, IteratorProtocol {
    @usableFromInline var value: Value?
    @inlinable public init(_ value: Value?) { self.value = value }
    @inlinable public mutating func next() -> Value? {
        defer { value = nil }
        return value
    }
}
