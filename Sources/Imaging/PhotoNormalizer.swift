public enum PhotoNormalizer {
    public static let largeSide = 512
    public static let smallSide = 128

    /// Detect type from bytes, read pixel size from the header without decoding, refuse absurd
    /// sizes, decode, apply the orientation, crop to the square, scale to 512 and 128, re-encode
    /// without any metadata.
    public static func normalize(
        _ bytes: [UInt8],
        crop: SquareCrop? = nil,
        limits: ImageLimits = .standard,
        encoding: PhotoEncoding = .standard
    ) throws(ImagingError) -> NormalizedPhoto {
        let header = try ImageHeader.read(bytes)
        try header.check(limits)
        let decoded = try GDImage.decode(bytes, header: header)
        let orientation = header.orientationToApply
        let shown = orientation.displayedSize(of: decoded.size)
        let square = SquareRegion(crop, in: shown)

        // Crop and reduce in stored orientation (cheap on the big image), then turn only 512².
        let stored = square.storedRegion(orientation, stored: decoded.size)
        guard
            let large = decoded.resampledSquare(x: stored.x, y: stored.y, sourceSide: stored.side, side: largeSide)?
                .oriented(orientation),
            let small = large.resampledSquare(x: 0, y: 0, sourceSide: largeSide, side: smallSide),
            let largeBytes = large.encoded(encoding),
            let smallBytes = small.encoded(encoding)
        else { throw .damaged }
        let format: ImageFormat = if case .webp = encoding { .webp } else { .jpeg }
        return NormalizedPhoto(large: largeBytes, small: smallBytes, format: format, source: shown)
    }

    /// The picture's size as displayed (after orientation), from the header only.
    public static func pixelSize(_ bytes: [UInt8]) throws(ImagingError) -> PixelSize {
        try ImageHeader.read(bytes).displayed
    }
}

/// A square in pixels, clamped into an image.
struct SquareRegion: Equatable {
    var x: Int
    var y: Int
    var side: Int

    init(x: Int, y: Int, side: Int) {
        self.x = x
        self.y = y
        self.side = side
    }

    /// The user's square, or the largest centred one when `crop` is nil.
    init(_ crop: SquareCrop?, in size: PixelSize) {
        let shorter = min(size.width, size.height)
        guard let crop else {
            self.init(x: (size.width - shorter) / 2, y: (size.height - shorter) / 2, side: shorter)
            return
        }
        let fraction = crop.side.isFinite ? min(max(crop.side, 0), 1) : 1
        let side = max(1, min(shorter, Int((fraction * Double(shorter)).rounded())))
        self.init(
            x: Self.clamp(crop.x, size.width, side),
            y: Self.clamp(crop.y, size.height, side),
            side: side
        )
    }

    /// Where the square starts along `length`: the fraction is bounded to 0...1 while it is still a
    /// `Double` (a crop of 1e300 is the far edge, never a trap).
    private static func clamp(_ fraction: Double, _ length: Int, _ side: Int) -> Int {
        guard fraction.isFinite else { return (length - side) / 2 }
        return min(max(Int((min(max(fraction, 0), 1) * Double(length)).rounded()), 0), length - side)
    }

    /// The same square in the stored pixels, for a displayed square under `orientation`.
    func storedRegion(_ orientation: Orientation, stored: PixelSize) -> SquareRegion {
        let a = orientation.storedPoint(x: x, y: y, stored: stored)
        let b = orientation.storedPoint(x: x + side - 1, y: y + side - 1, stored: stored)
        return SquareRegion(x: min(a.x, b.x), y: min(a.y, b.y), side: side)
    }
}
