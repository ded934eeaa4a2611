/// A page being written: one growing byte buffer, handed to the response when done (no String is
/// built on the way). Compiled templates write their literal markup with `raw` and every value
/// with `text`, which escapes it; nothing else writes into it.
public struct HTMLWriter: Sendable {
    @usableFromInline var storage: [UInt8]
    /// What has been written.
    public var bytes: [UInt8] { storage }

    /// `capacity`: what the page is expected to take, so the buffer never grows while writing.
    @inlinable public init(capacity: Int = 16 * 1024) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// Markup from a template file or from the generator (a string literal, never runtime text).
    @inlinable public mutating func raw(_ markup: StaticString) {
        storage.append(contentsOf: UnsafeRawBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Markup from Swift (`Markup`), written as it is.
    @inlinable public mutating func raw(_ markup: Markup) { storage.append(contentsOf: markup.bytes) }

    /// Text from anywhere, escaped for element content and quoted attribute values.
    @inlinable public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { HTMLEscaping.append($0, to: &storage) }
    }

    @inlinable public mutating func text(_ value: Substring) { text(String(value)) }
    @inlinable public mutating func text(_ value: String?) { if let value { text(value) } }
    @inlinable public mutating func text(_ value: Int) { decimal(Int64(value)) }
    @inlinable public mutating func text(_ value: Int64) { decimal(value) }
    @inlinable public mutating func text(_ value: Int?) { if let value { decimal(Int64(value)) } }
    @inlinable public mutating func text(_ value: Int64?) { if let value { decimal(value) } }
    @inlinable public mutating func text(_ value: Double) { text(String(value)) }
    @inlinable public mutating func text(_ value: Bool) { raw(value ? "true" : "false") }
    /// A label from `Templates/locales`, escaped by the generator.
    @inlinable public mutating func text(_ value: EscapedText) { raw(value.markup) }
    @inlinable public mutating func text(_ value: Markup) { raw(value) }

    /// `{{{name}}}` / `{{&name}}`: only markup that is markup by its type, never a String.
    @inlinable public mutating func unescaped(_ value: Markup) { raw(value) }
    @inlinable public mutating func unescaped(_ value: EscapedText) { raw(value.markup) }

    @usableFromInline mutating func decimal(_ value: Int64) {
        if value < 0 { storage.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for 24 digits, no allocation
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { storage.append(buffer[index]) }
        }
    }
}

/// Text already escaped by the generator (the labels of `Templates/locales`).
public struct EscapedText: Sendable {
    public let markup: StaticString
    @inlinable public init(generated markup: StaticString) { self.markup = markup }
}

/// Markup built in Swift. It cannot be made from a runtime `String`: only from a string literal
/// or from a page part written by a compiled template (`HTMLWriter`), whose values were escaped.
public struct Markup: Sendable {
    public let bytes: [UInt8]
    public init(literal: StaticString) {
        bytes = Array(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
    public init(written writer: HTMLWriter) { bytes = writer.storage }
}
