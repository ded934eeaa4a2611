/// Bytes made once and never changed (a public file read when the server starts), handed to
/// libmicrohttpd without a copy: every response sending them holds a reference until sent.
public final class SharedBytes: @unchecked Sendable {
    // Immutable after init: the memory is written once here and only read afterwards.
    let base: UnsafeMutableRawPointer
    public let count: Int

    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        // At least one byte: libmicrohttpd wants a pointer even for an empty body.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 16)
        buffer.copyBytes(from: bytes)
        base = buffer.baseAddress!
    }

    deinit { base.deallocate() }

    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
