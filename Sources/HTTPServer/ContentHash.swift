/// The version of a public file that its address carries (`/static/css/app.css?v=…`): FNV-1a
/// over its bytes, 64 bits as 16 hex digits. Not a security measure (every version of a file is
/// public): only a change of content must change it, and a repeat among a file's versions is a
/// 2⁻⁶⁴ chance. PHP's `hash('fnv1a64', …)` gives the same digits (bench/zaiko-php/list.php).
enum ContentHash {
    static func of(_ bytes: [UInt8]) -> String {
        // Over the buffer, not the array's iterator: a debug build (the tests', whose servers read
        // every public file at start) runs this loop a few times faster so.
        let hash = bytes.withUnsafeBufferPointer { buffer in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var index = 0
            while index < buffer.count {
                hash = (hash ^ UInt64(buffer[index])) &* 0x0000_0100_0000_01b3
                index &+= 1
            }
            return hash
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
