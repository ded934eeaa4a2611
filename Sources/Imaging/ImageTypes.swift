/// The photo formats Zaiko accepts, decided from the bytes alone.
public enum ImageFormat: String, Sendable {
    case jpeg, png, webp
    /// HEIF family: HEIC from iPhones, and AVIF (same container, AV1 inside).
    case heif
}

public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)×\(height)" }
}

public enum ImagingError: Error, Sendable, Equatable {
    /// Zero bytes.
    case empty
    /// Not JPEG, PNG, WebP or HEIF by its bytes (text, SVG, HTML, ...).
    case notAnImage
    /// The header declares more pixels than the limits allow; refused before decoding.
    case tooLarge(PixelSize)
    /// The header looked fine but decoding failed (truncated, corrupt, unsupported variant).
    case damaged
}

/// How big a picture may be before it is decoded. Decoding costs about 4 bytes per pixel
/// in libgd (plus the decoder's own buffers), so the pixel count is what protects memory.
public struct ImageLimits: Sendable {
    public var maxPixels: Int
    public var maxSide: Int

    public init(maxPixels: Int, maxSide: Int) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
    }

    /// 50 MP admits every phone's default output (48 MP HEIC included) and caps one decode
    /// at roughly 200 MB.
    public static let standard = ImageLimits(maxPixels: 50_000_000, maxSide: 12_000)

    func admits(_ size: PixelSize) -> Bool {
        size.width > 0 && size.height > 0
            && size.width <= maxSide && size.height <= maxSide
            && size.width * size.height <= maxPixels
    }
}

/// The square the user chose, as fractions of the image after orientation: left/top of the
/// square relative to width/height, side relative to the shorter side. Clamped into the image.
public struct SquareCrop: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var side: Double

    public init(x: Double, y: Double, side: Double) {
        self.x = x
        self.y = y
        self.side = side
    }
}

public struct NormalizedPhoto: Sendable {
    /// largeSide × largeSide, encoded as `format`, without metadata.
    public let large: [UInt8]
    /// smallSide × smallSide, encoded as `format`, without metadata.
    public let small: [UInt8]
    /// `.jpeg` or `.webp`: what `large` and `small` are encoded as.
    public let format: ImageFormat
    /// The source picture's size as displayed (after orientation).
    public let source: PixelSize
}

/// What normalised photos are encoded as.
public enum PhotoEncoding: Sendable, Equatable {
    case jpeg(quality: Int)
    case webp(quality: Int)

    public static let standard = PhotoEncoding.jpeg(quality: 82)
}
