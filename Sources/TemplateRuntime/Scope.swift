// The same pattern written out for each depth up to 8: change it in every depth alike.
//
// Mustache's context stack, resolved by the Swift compiler: `scope.name` is the innermost
// context's `name` when it has one, else the next one out. A scope of depth N is a class
// `ScopeN<I0, …>` (I0 the innermost) holding its own context and the scope it was pushed on:
// entering a section copies nothing of the page (flat structs copied the page, its chrome and
// the row, every field retained, at every section of every row). I0's members come from a
// subscript in the type itself, the outer contexts' from extensions of the protocols `Outer1` …
// `OuterN-1`, each
// refining the one before; Swift ranks a member of the type above one from a protocol
// extension, and an extension of a more refined protocol above one of its base, which is the
// stack's order. Every key path is rooted at a concrete view model type, so the optimizer
// folds it into a plain member access (key paths rooted at a generic scope type were
// instantiated at run time on every access). A name no context has is a compile error, reported
// at the template's line through `#sourceLocation`.

public protocol Outer1 {
    associatedtype O1
    var o1: O1 { get }
}

extension Outer1 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O1, Value>) -> Value { o1[keyPath: path] }
}

public protocol Outer2: Outer1 {
    associatedtype O2
    var o2: O2 { get }
}

extension Outer2 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O2, Value>) -> Value { o2[keyPath: path] }
}

public protocol Outer3: Outer2 {
    associatedtype O3
    var o3: O3 { get }
}

extension Outer3 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O3, Value>) -> Value { o3[keyPath: path] }
}

public protocol Outer4: Outer3 {
    associatedtype O4
    var o4: O4 { get }
}

extension Outer4 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O4, Value>) -> Value { o4[keyPath: path] }
}

public protocol Outer5: Outer4 {
    associatedtype O5
    var o5: O5 { get }
}

extension Outer5 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O5, Value>) -> Value { o5[keyPath: path] }
}

public protocol Outer6: Outer5 {
    associatedtype O6
    var o6: O6 { get }
}

extension Outer6 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O6, Value>) -> Value { o6[keyPath: path] }
}

public protocol Outer7: Outer6 {
    associatedtype O7
    var o7: O7 { get }
}

extension Outer7 {
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<O7, Value>) -> Value { o7[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope1<I0> {
    public let i0: I0
    @inlinable public init(_ i0: I0) {
        self.i0 = i0
    }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope2<I0, I1>: Outer1 {
    public let i0: I0
    public let parent: Scope1<I1>
    @inlinable public init(_ i0: I0, _ parent: Scope1<I1>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var o1: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope3<I0, I1, I2>: Outer2 {
    public let i0: I0
    public let parent: Scope2<I1, I2>
    @inlinable public init(_ i0: I0, _ parent: Scope2<I1, I2>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var o1: I2 { i2 }
    @inlinable public var o2: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope4<I0, I1, I2, I3>: Outer3 {
    public let i0: I0
    public let parent: Scope3<I1, I2, I3>
    @inlinable public init(_ i0: I0, _ parent: Scope3<I1, I2, I3>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var i3: I3 { parent.i2 }
    @inlinable public var o1: I3 { i3 }
    @inlinable public var o2: I2 { i2 }
    @inlinable public var o3: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope5<I0, I1, I2, I3, I4>: Outer4 {
    public let i0: I0
    public let parent: Scope4<I1, I2, I3, I4>
    @inlinable public init(_ i0: I0, _ parent: Scope4<I1, I2, I3, I4>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var i3: I3 { parent.i2 }
    @inlinable public var i4: I4 { parent.i3 }
    @inlinable public var o1: I4 { i4 }
    @inlinable public var o2: I3 { i3 }
    @inlinable public var o3: I2 { i2 }
    @inlinable public var o4: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope6<I0, I1, I2, I3, I4, I5>: Outer5 {
    public let i0: I0
    public let parent: Scope5<I1, I2, I3, I4, I5>
    @inlinable public init(_ i0: I0, _ parent: Scope5<I1, I2, I3, I4, I5>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var i3: I3 { parent.i2 }
    @inlinable public var i4: I4 { parent.i3 }
    @inlinable public var i5: I5 { parent.i4 }
    @inlinable public var o1: I5 { i5 }
    @inlinable public var o2: I4 { i4 }
    @inlinable public var o3: I3 { i3 }
    @inlinable public var o4: I2 { i2 }
    @inlinable public var o5: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope7<I0, I1, I2, I3, I4, I5, I6>: Outer6 {
    public let i0: I0
    public let parent: Scope6<I1, I2, I3, I4, I5, I6>
    @inlinable public init(_ i0: I0, _ parent: Scope6<I1, I2, I3, I4, I5, I6>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var i3: I3 { parent.i2 }
    @inlinable public var i4: I4 { parent.i3 }
    @inlinable public var i5: I5 { parent.i4 }
    @inlinable public var i6: I6 { parent.i5 }
    @inlinable public var o1: I6 { i6 }
    @inlinable public var o2: I5 { i5 }
    @inlinable public var o3: I4 { i4 }
    @inlinable public var o4: I3 { i3 }
    @inlinable public var o5: I2 { i2 }
    @inlinable public var o6: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

@dynamicMemberLookup
public final class Scope8<I0, I1, I2, I3, I4, I5, I6, I7>: Outer7 {
    public let i0: I0
    public let parent: Scope7<I1, I2, I3, I4, I5, I6, I7>
    @inlinable public init(_ i0: I0, _ parent: Scope7<I1, I2, I3, I4, I5, I6, I7>) {
        self.i0 = i0
        self.parent = parent
    }
    @inlinable public var i1: I1 { parent.i0 }
    @inlinable public var i2: I2 { parent.i1 }
    @inlinable public var i3: I3 { parent.i2 }
    @inlinable public var i4: I4 { parent.i3 }
    @inlinable public var i5: I5 { parent.i4 }
    @inlinable public var i6: I6 { parent.i5 }
    @inlinable public var i7: I7 { parent.i6 }
    @inlinable public var o1: I7 { i7 }
    @inlinable public var o2: I6 { i6 }
    @inlinable public var o3: I5 { i5 }
    @inlinable public var o4: I4 { i4 }
    @inlinable public var o5: I3 { i3 }
    @inlinable public var o6: I2 { i2 }
    @inlinable public var o7: I1 { i1 }
    @inlinable public subscript<Value>(dynamicMember path: KeyPath<I0, Value>) -> Value { i0[keyPath: path] }
}

extension Section {
    // A value with members becomes the innermost context; scalars do not (`{{.}}` names them,
    // and every other name goes on to the enclosing context: a String's own `count` or `first`
    // never hides the page's).
    @inlinable public static func push<Value, I0>(_ value: Value, _ scope: Scope1<I0>) -> Scope2<Value, I0> {
        Scope2(value, scope)
    }
    @inlinable public static func push<I0>(_ value: Bool, _ scope: Scope1<I0>) -> Scope1<I0> { scope }
    @inlinable public static func push<I0>(_ value: String, _ scope: Scope1<I0>) -> Scope1<I0> { scope }
    @inlinable public static func push<I0>(_ value: Int, _ scope: Scope1<I0>) -> Scope1<I0> { scope }
    @inlinable public static func push<I0>(_ value: Int64, _ scope: Scope1<I0>) -> Scope1<I0> { scope }
    @inlinable public static func push<I0>(_ value: Double, _ scope: Scope1<I0>) -> Scope1<I0> { scope }
    @inlinable public static func push<Value, I0, I1>(_ value: Value, _ scope: Scope2<I0, I1>) -> Scope3<Value, I0, I1> {
        Scope3(value, scope)
    }
    @inlinable public static func push<I0, I1>(_ value: Bool, _ scope: Scope2<I0, I1>) -> Scope2<I0, I1> { scope }
    @inlinable public static func push<I0, I1>(_ value: String, _ scope: Scope2<I0, I1>) -> Scope2<I0, I1> { scope }
    @inlinable public static func push<I0, I1>(_ value: Int, _ scope: Scope2<I0, I1>) -> Scope2<I0, I1> { scope }
    @inlinable public static func push<I0, I1>(_ value: Int64, _ scope: Scope2<I0, I1>) -> Scope2<I0, I1> { scope }
    @inlinable public static func push<I0, I1>(_ value: Double, _ scope: Scope2<I0, I1>) -> Scope2<I0, I1> { scope }
    @inlinable public static func push<Value, I0, I1, I2>(_ value: Value, _ scope: Scope3<I0, I1, I2>) -> Scope4<Value, I0, I1, I2> {
        Scope4(value, scope)
    }
    @inlinable public static func push<I0, I1, I2>(_ value: Bool, _ scope: Scope3<I0, I1, I2>) -> Scope3<I0, I1, I2> { scope }
    @inlinable public static func push<I0, I1, I2>(_ value: String, _ scope: Scope3<I0, I1, I2>) -> Scope3<I0, I1, I2> { scope }
    @inlinable public static func push<I0, I1, I2>(_ value: Int, _ scope: Scope3<I0, I1, I2>) -> Scope3<I0, I1, I2> { scope }
    @inlinable public static func push<I0, I1, I2>(_ value: Int64, _ scope: Scope3<I0, I1, I2>) -> Scope3<I0, I1, I2> { scope }
    @inlinable public static func push<I0, I1, I2>(_ value: Double, _ scope: Scope3<I0, I1, I2>) -> Scope3<I0, I1, I2> { scope }
    @inlinable public static func push<Value, I0, I1, I2, I3>(_ value: Value, _ scope: Scope4<I0, I1, I2, I3>) -> Scope5<Value, I0, I1, I2, I3> {
        Scope5(value, scope)
    }
    @inlinable public static func push<I0, I1, I2, I3>(_ value: Bool, _ scope: Scope4<I0, I1, I2, I3>) -> Scope4<I0, I1, I2, I3> { scope }
    @inlinable public static func push<I0, I1, I2, I3>(_ value: String, _ scope: Scope4<I0, I1, I2, I3>) -> Scope4<I0, I1, I2, I3> { scope }
    @inlinable public static func push<I0, I1, I2, I3>(_ value: Int, _ scope: Scope4<I0, I1, I2, I3>) -> Scope4<I0, I1, I2, I3> { scope }
    @inlinable public static func push<I0, I1, I2, I3>(_ value: Int64, _ scope: Scope4<I0, I1, I2, I3>) -> Scope4<I0, I1, I2, I3> { scope }
    @inlinable public static func push<I0, I1, I2, I3>(_ value: Double, _ scope: Scope4<I0, I1, I2, I3>) -> Scope4<I0, I1, I2, I3> { scope }
    @inlinable public static func push<Value, I0, I1, I2, I3, I4>(_ value: Value, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope6<Value, I0, I1, I2, I3, I4> {
        Scope6(value, scope)
    }
    @inlinable public static func push<I0, I1, I2, I3, I4>(_ value: Bool, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope5<I0, I1, I2, I3, I4> { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4>(_ value: String, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope5<I0, I1, I2, I3, I4> { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4>(_ value: Int, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope5<I0, I1, I2, I3, I4> { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4>(_ value: Int64, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope5<I0, I1, I2, I3, I4> { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4>(_ value: Double, _ scope: Scope5<I0, I1, I2, I3, I4>) -> Scope5<I0, I1, I2, I3, I4> { scope }
    @inlinable public static func push<Value, I0, I1, I2, I3, I4, I5>(_ value: Value, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope7<
        Value, I0, I1, I2, I3, I4, I5
    > {
        Scope7(value, scope)
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5>(_ value: Bool, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope6<I0, I1, I2, I3, I4, I5> {
        scope
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5>(_ value: String, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope6<I0, I1, I2, I3, I4, I5> {
        scope
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5>(_ value: Int, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope6<I0, I1, I2, I3, I4, I5> {
        scope
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5>(_ value: Int64, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope6<I0, I1, I2, I3, I4, I5> {
        scope
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5>(_ value: Double, _ scope: Scope6<I0, I1, I2, I3, I4, I5>) -> Scope6<I0, I1, I2, I3, I4, I5> {
        scope
    }
    @inlinable public static func push<Value, I0, I1, I2, I3, I4, I5, I6>(_ value: Value, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope8<
        Value, I0, I1, I2, I3, I4, I5, I6
    > {
        Scope8(value, scope)
    }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5, I6>(_ value: Bool, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope7<
        I0, I1, I2, I3, I4, I5, I6
    > { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5, I6>(_ value: String, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope7<
        I0, I1, I2, I3, I4, I5, I6
    > { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5, I6>(_ value: Int, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope7<
        I0, I1, I2, I3, I4, I5, I6
    > { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5, I6>(_ value: Int64, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope7<
        I0, I1, I2, I3, I4, I5, I6
    > { scope }
    @inlinable public static func push<I0, I1, I2, I3, I4, I5, I6>(_ value: Double, _ scope: Scope7<I0, I1, I2, I3, I4, I5, I6>) -> Scope7<
        I0, I1, I2, I3, I4, I5, I6
    > { scope }
}
