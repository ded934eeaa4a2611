/// The primary image's size and transforms from a HEIF/AVIF file's `meta` box
/// (`pitm`, `iprp/ipco` properties, `iprp/ipma` associations), without decoding.
enum HEIFHeader {
    private struct Box {
        let type: String
        /// Where the payload starts and where the box ends.
        let payload: Int
        let end: Int
    }

    private enum Property {
        case size(PixelSize)
        case rotation(Int)
        case mirror(Int)
        case other
    }

    static func read(_ reader: ByteReader) -> ImageHeader? {
        guard let brand = HEIFBrand.of(reader.bytes),
              let meta = boxes(reader, from: 0, to: reader.bytes.count).first(where: { $0.type == "meta" })
        else { return nil }
        // meta is a full box: version and flags before its children.
        let children = boxes(reader, from: meta.payload + 4, to: meta.end)
        guard let pitm = children.first(where: { $0.type == "pitm" }),
              let iprp = children.first(where: { $0.type == "iprp" }),
              let version = reader.u8(pitm.payload),
              let primary = version == 0 ? reader.u16be(pitm.payload + 4) : reader.u32be(pitm.payload + 4)
        else { return nil }
        let containers = boxes(reader, from: iprp.payload, to: iprp.end)
        guard let ipco = containers.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = boxes(reader, from: ipco.payload, to: ipco.end).map { property(reader, $0) }
        let sizes = properties.compactMap { if case .size(let size) = $0 { size } else { nil } }
        guard let largest = sizes.max(by: { $0.pixelCount < $1.pixelCount }) else { return nil }

        var stored: PixelSize?
        var rotation = 0
        var mirror: Int?
        for ipma in containers where ipma.type == "ipma" {
            for index in associations(reader, ipma, item: primary) {
                guard index >= 1, index <= properties.count else { continue }
                switch properties[index - 1] {
                case .size(let size): stored = size
                case .rotation(let quarters): rotation = quarters
                case .mirror(let axis): mirror = axis
                case .other: break
                }
            }
        }
        guard let stored else { return nil }
        return ImageHeader(
            format: .heif, stored: stored, largest: largest,
            orientation: .heif(rotationQuarterTurns: rotation, mirrorAxis: mirror),
            decoderApplies: brand == .hevc, heifBrand: brand
        )
    }

    private static func boxes(_ reader: ByteReader, from start: Int, to end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end, result.count < 10_000 {
            guard let size32 = reader.u32be(offset), let type = reader.fourCC(offset + 4) else { break }
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = reader.u64be(offset + 8) else { break }
                size = large
                header = 16
            } else if size32 == 0 {
                size = end - offset
            }
            guard size >= header, offset + size <= end else { break }
            result.append(Box(type: type, payload: offset + header, end: offset + size))
            offset += size
        }
        return result
    }

    private static func property(_ reader: ByteReader, _ box: Box) -> Property {
        switch box.type {
        case "ispe":
            // Full box, then 32-bit width and height.
            guard let width = reader.u32be(box.payload + 4), let height = reader.u32be(box.payload + 8) else {
                return .other
            }
            return .size(PixelSize(width: width, height: height))
        case "irot":
            return reader.u8(box.payload).map { .rotation($0 & 3) } ?? .other
        case "imir":
            return reader.u8(box.payload).map { .mirror($0 & 1) } ?? .other
        default:
            return .other
        }
    }

    /// The 1-based property indices associated with `item` in one `ipma` box.
    private static func associations(_ reader: ByteReader, _ ipma: Box, item: Int) -> [Int] {
        guard let version = reader.u8(ipma.payload), let flags = reader.u8(ipma.payload + 3),
              let entryCount = reader.u32be(ipma.payload + 4)
        else { return [] }
        let wideIDs = version >= 1
        let wideIndices = flags & 1 == 1
        var offset = ipma.payload + 8
        for _ in 0..<min(entryCount, 100_000) {
            guard let id = wideIDs ? reader.u32be(offset) : reader.u16be(offset) else { return [] }
            offset += wideIDs ? 4 : 2
            guard let count = reader.u8(offset) else { return [] }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<count {
                // The top bit marks an essential property; the rest is the index.
                if wideIndices {
                    guard let value = reader.u16be(offset) else { return [] }
                    indices.append(value & 0x7FFF)
                    offset += 2
                } else {
                    guard let value = reader.u8(offset) else { return [] }
                    indices.append(value & 0x7F)
                    offset += 1
                }
            }
            if id == item { return indices }
        }
        return []
    }
}
