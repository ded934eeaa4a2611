/// Segment-level edits of JPEG files libgd wrote or is about to read.
enum JPEGStructure {
    /// Whether an EOI marker (FF D9) follows the first scan. Inside entropy-coded data FF is
    /// always followed by 00 or a restart marker, so FF D9 there means the image is complete;
    /// a truncated file has none. Data appended after EOI (some cameras add a second image) is fine.
    static func hasEndOfImage(_ bytes: [UInt8], after scanStart: Int) -> Bool {
        // From the end: a complete file usually ends with it, so this stops at once.
        var index = bytes.count - 2
        while index >= scanStart {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xD9 { return true }
            index -= 1
        }
        return false
    }

    /// The same JPEG without comments and application segments other than the JFIF APP0
    /// (libgd writes a "CREATOR: gd-jpeg" comment; nothing else should leave the server).
    static func withoutMetadata(_ bytes: [UInt8]) -> [UInt8]? {
        let reader = ByteReader(bytes: bytes)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var result: [UInt8] = [0xFF, 0xD8]
        result.reserveCapacity(bytes.count)
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF, let length = reader.u16be(offset + 2) else { return nil }
            let marker = Int(bytes[offset + 1])
            if marker == 0xDA {
                // Start of scan: the entropy-coded data runs to the end.
                result.append(contentsOf: bytes[offset...])
                return result
            }
            let end = offset + 2 + length
            guard end <= bytes.count else { return nil }
            let isJFIF = marker == 0xE0 && reader.matches("JFIF\0", at: offset + 4)
            let isMetadata = marker == 0xFE || ((0xE0...0xEF).contains(marker) && !isJFIF)
            if !isMetadata { result.append(contentsOf: bytes[offset..<end]) }
            offset = end
        }
        return nil
    }
}
