/// The eight EXIF orientations: how the stored pixels must be turned to be displayed.
enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, upsideDown = 3, flipped = 4
    case transposed = 5, rotatedClockwise = 6, transverse = 7, rotatedCounterClockwise = 8

    /// 5–8 swap width and height.
    var swapsAxes: Bool { rawValue >= 5 }

    func displayedSize(of stored: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    /// The stored pixel shown at displayed position (x, y), for a stored image `stored`.
    func storedPoint(x: Int, y: Int, stored: PixelSize) -> (x: Int, y: Int) {
        let w = stored.width, h = stored.height
        switch self {
        case .up: return (x, y)
        case .mirrored: return (w - 1 - x, y)
        case .upsideDown: return (w - 1 - x, h - 1 - y)
        case .flipped: return (x, h - 1 - y)
        case .transposed: return (y, x)
        case .rotatedClockwise: return (y, h - 1 - x)
        case .transverse: return (w - 1 - y, h - 1 - x)
        case .rotatedCounterClockwise: return (w - 1 - y, x)
        }
    }

    /// HEIF's transform properties as one orientation: `irot` turns counter-clockwise by
    /// quarter turns, then `imir` mirrors (axis 0: top-bottom flip, 1: left-right flip).
    static func heif(rotationQuarterTurns: Int, mirrorAxis: Int?) -> Orientation {
        // After a counter-clockwise turn of q quarters, as EXIF values.
        let rotated: [Orientation] = [.up, .rotatedCounterClockwise, .upsideDown, .rotatedClockwise]
        let base = rotated[((rotationQuarterTurns % 4) + 4) % 4]
        guard let axis = mirrorAxis else { return base }
        // Mirroring after the turn: compose through a lookup of (base, mirror) pairs.
        let leftRight: [Orientation: Orientation] = [
            .up: .mirrored, .rotatedCounterClockwise: .transverse,
            .upsideDown: .flipped, .rotatedClockwise: .transposed,
        ]
        guard let mirrored = leftRight[base] else { return base }
        // A top-bottom flip is a left-right flip plus half a turn.
        return axis == 1 ? mirrored : mirrored.turnedHalf
    }

    private var turnedHalf: Orientation {
        switch self {
        case .up: .upsideDown
        case .upsideDown: .up
        case .mirrored: .flipped
        case .flipped: .mirrored
        case .transposed: .transverse
        case .transverse: .transposed
        case .rotatedClockwise: .rotatedCounterClockwise
        case .rotatedCounterClockwise: .rotatedClockwise
        }
    }
}
