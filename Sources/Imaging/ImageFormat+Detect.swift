extension ImageFormat {
    /// The format from magic bytes only; nil for anything else (text, SVG, HTML, GIF, ...).
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        if HEIFBrand.of(bytes) != nil { return .heif }
        return nil
    }
}

/// What the ftyp box of an ISO-BMFF file says it is.
enum HEIFBrand: Equatable {
    /// HEVC inside: decoded by libheif.
    case hevc
    /// AV1 inside: decoded by libavif.
    case av1

    private static let hevcBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
    private static let av1Brands: Set<String> = ["avif", "avis"]
    /// Generic still-image brands; what is inside is decided by the other brands (HEVC when none says).
    private static let genericBrands: Set<String> = ["mif1", "msf1"]

    static func of(_ bytes: [UInt8]) -> HEIFBrand? {
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard boxSize >= 16, boxSize <= bytes.count, boxSize <= 4096 else { return nil }
        var brands = [brand(bytes, at: 8)]
        var offset = 16
        while offset + 4 <= boxSize {
            brands.append(brand(bytes, at: offset))
            offset += 4
        }
        if brands.contains(where: av1Brands.contains) && !brands.contains(where: hevcBrands.contains) {
            return .av1
        }
        if brands.contains(where: { hevcBrands.contains($0) || genericBrands.contains($0) }) { return .hevc }
        return nil
    }

    private static func brand(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
