/// Mustache's context stack, resolved by the Swift compiler: `scope.name` is the innermost
/// context's `name` when it has one (the subscript in the type ranks above the one in the
/// protocol extension), else the same look-up one context further out. A name no context has
/// is a compile error, reported at the template's line through `#sourceLocation`.
@dynamicMemberLookup
public struct Scope<Inner, Outer>: OuterScope {
    public let inner: Inner
    public let outer: Outer

    @inlinable public init(inner: Inner, outer: Outer) {
        self.inner = inner
        self.outer = outer
    }

    @inlinable public subscript<Value>(dynamicMember path: KeyPath<Inner, Value>) -> Value { inner[keyPath: path] }
}

public protocol OuterScope {
    associatedtype Outer
    var outer: Outer { get }
}

extension OuterScope {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<Outer, Value>) -> Value { outer[keyPath: path] }
}
