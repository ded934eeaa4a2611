#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An 8-bit grayscale bitmap, the form zbar reads (`Y800`).
struct GrayImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Luma (BT.601) of a true-colour libgd image; transparent pixels count as white paper.
    init?(_ image: GDImage) {
        guard image.pointer.pointee.trueColor != 0, let rows = image.pointer.pointee.tpixels else { return nil }
        width = image.width
        height = image.height
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            guard let row = rows[y] else { return nil }
            for x in 0..<width {
                let p = Int(row[x])
                let luma = (77 * ((p >> 16) & 0xFF) + 150 * ((p >> 8) & 0xFF) + 29 * (p & 0xFF)) >> 8
                let alpha = (p >> 24) & 0x7F // libgd: 0 opaque, 127 transparent
                pixels[y * width + x] = UInt8((luma * (127 - alpha) + 255 * alpha) / 127)
            }
        }
        self.pixels = pixels
    }

    /// Averages `factor`×`factor` blocks: a cheap reduction without aliasing, which would
    /// merge thin bars.
    func reduced(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor
        guard w > 0, h > 0 else { return self }
        var sums = [Int](repeating: 0, count: w)
        var result = [UInt8](repeating: 0, count: w * h)
        let area = factor * factor
        for y in 0..<h {
            for i in 0..<w { sums[i] = 0 }
            for row in (y * factor)..<(y * factor + factor) {
                let base = row * width
                for x in 0..<w {
                    var sum = 0
                    for i in (base + x * factor)..<(base + x * factor + factor) { sum += Int(pixels[i]) }
                    sums[x] += sum
                }
            }
            for x in 0..<w { result[y * w + x] = UInt8(sums[x] / area) }
        }
        return GrayImage(width: w, height: h, pixels: result)
    }

    /// Twice as large (bilinear), for barcodes photographed too small for zbar's scan lines.
    func enlarged() -> GrayImage {
        let w = width * 2, h = height * 2
        var result = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let sx = min(Double(x) / 2, Double(width) - 1.001), sy = min(Double(y) / 2, Double(height) - 1.001)
                result[y * w + x] = sample(sx, sy) ?? pixels[min(y / 2, height - 1) * width + min(x / 2, width - 1)]
            }
        }
        return GrayImage(width: w, height: h, pixels: result)
    }

    /// Turned by `degrees` about the centre onto a canvas big enough for all of it
    /// (bilinear, white outside), so a barcode lying diagonally lies level.
    func rotated(degrees: Double) -> GrayImage {
        let radians = degrees * .pi / 180
        let c = cos(radians), s = sin(radians)
        let w = Int((Double(width) * abs(c) + Double(height) * abs(s)).rounded(.up))
        let h = Int((Double(width) * abs(s) + Double(height) * abs(c)).rounded(.up))
        var result = [UInt8](repeating: 255, count: w * h)
        let cx = Double(width) / 2, cy = Double(height) / 2
        let ox = Double(w) / 2, oy = Double(h) / 2
        for y in 0..<h {
            let dy = Double(y) - oy
            for x in 0..<w {
                let dx = Double(x) - ox
                // Inverse rotation: where this target pixel comes from.
                let sx = c * dx + s * dy + cx
                let sy = -s * dx + c * dy + cy
                if let value = sample(sx, sy) { result[y * w + x] = value }
            }
        }
        return GrayImage(width: w, height: h, pixels: result)
    }

    private func sample(_ x: Double, _ y: Double) -> UInt8? {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        guard x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height else { return nil }
        let fx = x - Double(x0), fy = y - Double(y0)
        let i = y0 * width + x0
        let top = Double(pixels[i]) * (1 - fx) + Double(pixels[i + 1]) * fx
        let bottom = Double(pixels[i + width]) * (1 - fx) + Double(pixels[i + width + 1]) * fx
        return UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
    }

    /// Unsharp mask with a 3×3 box: restores edges a soft focus or a downscale blurred.
    func sharpened(amount: Int = 2) -> GrayImage {
        guard width >= 3, height >= 3 else { return self }
        var result = pixels
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                var sum = 0
                for row in [i - width, i, i + width] {
                    sum += Int(pixels[row - 1]) + Int(pixels[row]) + Int(pixels[row + 1])
                }
                let value = Int(pixels[i])
                result[i] = UInt8(clamping: value + amount * (value - sum / 9))
            }
        }
        return GrayImage(width: width, height: height, pixels: result)
    }
}
