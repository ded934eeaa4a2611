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
        guard var stored else { return nil }
        var declared = largest
        // A grid or overlay is decoded into a canvas of the size its own data gives, which need
        // not match its `ispe`: the limits must see that size before anything is decoded.
        switch itemType(reader, children, item: primary) {
        case "grid", "iovl":
            guard let canvas = derivedCanvas(reader, children, item: primary) else { return nil }
            stored = canvas
            if canvas.pixelCount > declared.pixelCount || max(canvas.width, canvas.height) > max(declared.width, declared.height) {
                declared = PixelSize(width: max(canvas.width, declared.width), height: max(canvas.height, declared.height))
            }
        default:
            break
        }
        return ImageHeader(
            format: .heif, stored: stored, largest: declared,
            orientation: .heif(rotationQuarterTurns: rotation, mirrorAxis: mirror),
            decoderApplies: brand == .hevc, heifBrand: brand
        )
    }

    /// The four-character type of `item` from `iinf` (`hvc1`, `av01`, `grid`, …).
    private static func itemType(_ reader: ByteReader, _ metaChildren: [Box], item: Int) -> String? {
        guard let iinf = metaChildren.first(where: { $0.type == "iinf" }), let version = reader.u8(iinf.payload) else { return nil }
        let entries = iinf.payload + 4 + (version == 0 ? 2 : 4)
        for infe in boxes(reader, from: entries, to: iinf.end) where infe.type == "infe" {
            // Versions 2 and 3 (the ones HEIF uses): id, protection index, type.
            guard let infeVersion = reader.u8(infe.payload), infeVersion >= 2 else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            guard let id = idSize == 2 ? reader.u16be(infe.payload + 4) : reader.u32be(infe.payload + 4), id == item else { continue }
            return reader.fourCC(infe.payload + 4 + idSize + 2)
        }
        return nil
    }

    /// The output size a `grid` or `iovl` item's data declares (ISO/IEC 23008-12, 6.6.2.3 and
    /// 6.6.2.2), read through `iloc` from `idat` or the file. Nil when it cannot be read.
    private static func derivedCanvas(_ reader: ByteReader, _ metaChildren: [Box], item: Int) -> PixelSize? {
        guard let type = itemType(reader, metaChildren, item: item), let data = itemData(reader, metaChildren, item: item),
            let flags = reader.u8(data + 1)
        else { return nil }
        let wide = flags & 1 == 1
        // grid: version, flags, rows − 1, columns − 1; iovl: version, flags, four 16-bit fill values.
        let sizeOffset = data + (type == "grid" ? 4 : 2 + 4 * 2)
        guard let width = wide ? reader.u32be(sizeOffset) : reader.u16be(sizeOffset),
            let height = wide ? reader.u32be(sizeOffset + 4) : reader.u16be(sizeOffset + 2),
            width > 0, height > 0
        else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Where the first extent of `item`'s data starts in `reader` (`iloc` construction method 0,
    /// the file, or 1, the `idat` box).
    private static func itemData(_ reader: ByteReader, _ metaChildren: [Box], item: Int) -> Int? {
        guard let iloc = metaChildren.first(where: { $0.type == "iloc" }), let version = reader.u8(iloc.payload),
            let sizes = reader.u8(iloc.payload + 4), let sizes2 = reader.u8(iloc.payload + 5)
        else { return nil }
        let offsetSize = sizes >> 4, lengthSize = sizes & 15, baseOffsetSize = sizes2 >> 4
        let indexSize = version == 1 || version == 2 ? sizes2 & 15 : 0
        func read(_ size: Int, _ at: Int) -> Int? {
            switch size {
            case 0: return 0
            case 4: return reader.u32be(at)
            case 8: return reader.u64be(at)
            default: return nil
            }
        }
        var offset = iloc.payload + 6
        guard let count = version < 2 ? reader.u16be(offset) : reader.u32be(offset) else { return nil }
        offset += version < 2 ? 2 : 4
        for _ in 0..<min(count, 100_000) {
            guard let id = version < 2 ? reader.u16be(offset) : reader.u32be(offset) else { return nil }
            offset += version < 2 ? 2 : 4
            var method = 0
            if version == 1 || version == 2 {
                guard let value = reader.u16be(offset) else { return nil }
                method = value & 15
                offset += 2
            }
            offset += 2 // data_reference_index
            guard let base = read(baseOffsetSize, offset), let extents = reader.u16be(offset + baseOffsetSize) else { return nil }
            offset += baseOffsetSize + 2
            let extentSize = indexSize + offsetSize + lengthSize
            if id == item {
                guard extents >= 1, let extentOffset = read(offsetSize, offset + indexSize) else { return nil }
                switch method {
                case 0: return base + extentOffset
                case 1:
                    guard let idat = metaChildren.first(where: { $0.type == "idat" }) else { return nil }
                    return idat.payload + base + extentOffset
                default: return nil
                }
            }
            offset += extents * extentSize
        }
        return nil
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
