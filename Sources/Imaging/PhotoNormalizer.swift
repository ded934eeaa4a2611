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
        throw .damaged
    }

    /// The picture's size as displayed (after orientation), from the header only.
    public static func pixelSize(_ bytes: [UInt8]) throws(ImagingError) -> PixelSize {
        throw .damaged
    }
}
