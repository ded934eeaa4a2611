/// Bounds-checked integer reads from untrusted bytes: every read returns nil past the end.
struct ByteReader {
    let bytes: [UInt8]

    func u8(_ offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return Int(bytes[offset])
    }

    func u16be(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return a << 8 | b
    }

    func u16le(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return b << 8 | a
    }

    func u24le(_ offset: Int) -> Int? {
        guard let low = u16le(offset), let high = u8(offset + 2) else { return nil }
        return high << 16 | low
    }

    func u32be(_ offset: Int) -> Int? {
        guard let a = u16be(offset), let b = u16be(offset + 2) else { return nil }
        return a << 16 | b
    }

    func u32le(_ offset: Int) -> Int? {
        guard let a = u16le(offset), let b = u16le(offset + 2) else { return nil }
        return b << 16 | a
    }

    /// Nil past 2^48: no buffer here is that large, and a smaller value keeps every sum of two
    /// offsets read from a file (box end, base + extent) from overflowing and trapping.
    func u64be(_ offset: Int) -> Int? {
        guard let a = u32be(offset), let b = u32be(offset + 4), a < 1 << 16 else { return nil }
        return a << 32 | b
    }

    func u16(_ offset: Int, bigEndian: Bool) -> Int? {
        bigEndian ? u16be(offset) : u16le(offset)
    }

    func u32(_ offset: Int, bigEndian: Bool) -> Int? {
        bigEndian ? u32be(offset) : u32le(offset)
    }

    func fourCC(_ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    func matches(_ text: String, at offset: Int) -> Bool {
        let expected = Array(text.utf8)
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        return bytes[offset..<offset + expected.count].elementsEqual(expected)
    }
}
