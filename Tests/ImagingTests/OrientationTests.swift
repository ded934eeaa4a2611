import CGD
import Testing

@testable import Imaging

@Suite struct OrientationTests {
    /// Where the red and green quadrants must be STORED so that, once turned for display,
    /// red is top-left and green top-right. Written out by hand from the EXIF definitions,
    /// independently of the code under test.
    enum Quadrant { case topLeft, topRight, bottomLeft, bottomRight }
    static let storedQuadrants: [Int: (red: Quadrant, green: Quadrant)] = [
        1: (.topLeft, .topRight),
        2: (.topRight, .topLeft), // mirrored left-right
        3: (.bottomRight, .bottomLeft), // upside down
        4: (.bottomLeft, .bottomRight), // mirrored top-bottom
        5: (.topLeft, .bottomLeft), // transposed
        6: (.bottomLeft, .topLeft), // shown turned 90° clockwise
        7: (.bottomRight, .topRight), // transverse
        8: (.topRight, .bottomRight), // shown turned 90° counter-clockwise
    ]

    /// A 400×300 JPEG, blue, with red and green quadrants, tagged with `orientation`.
    static func taggedPhoto(orientation: Int) -> [UInt8] {
        guard let (red, green) = storedQuadrants[orientation] else { fatalError("no orientation \(orientation)") }
        let image = Fixtures.canvas(400, 300, background: Fixtures.blue) { image in
            for (quadrant, color) in [(red, Fixtures.red), (green, Fixtures.green)] {
                let (x, y) =
                    switch quadrant {
                    case .topLeft: (0, 0)
                    case .topRight: (200, 0)
                    case .bottomLeft: (0, 150)
                    case .bottomRight: (200, 150)
                    }
                Fixtures.fill(image, x, y, 200, 150, color)
            }
        }
        return Fixtures.withMetadata(Fixtures.encode(image, .jpeg(92)), orientation: orientation)
    }

    @Test(arguments: 1...8)
    func exifOrientationPutsTheRedCornerTopLeft(orientation: Int) throws {
        let photo = try PhotoNormalizer.normalize(Self.taggedPhoto(orientation: orientation))
        let expectedSource = orientation >= 5 ? PixelSize(width: 300, height: 400) : PixelSize(width: 400, height: 300)
        #expect(photo.source == expectedSource)

        let large = try Fixtures.decode(photo.large)
        #expect(large.size == PixelSize(width: 512, height: 512))
        let corners = [(128, 128, Fixtures.red), (384, 128, Fixtures.green), (128, 384, Fixtures.blue), (384, 384, Fixtures.blue)]
        for (x, y, expected) in corners {
            let actual = large.rgb(x: x, y: y)
            #expect(
                Fixtures.isClose(actual, to: expected),
                "orientation \(orientation): at (\(x), \(y)) \(Fixtures.hex(actual)), expected \(Fixtures.hex(expected))")
        }
        let small = try Fixtures.decode(photo.small)
        #expect(small.size == PixelSize(width: 128, height: 128))
        #expect(Fixtures.isClose(small.rgb(x: 32, y: 32), to: Fixtures.red))
        #expect(Fixtures.isClose(small.rgb(x: 96, y: 32), to: Fixtures.green))
    }

    @Test(arguments: 1...8)
    func headerSizeIsTheDisplayedSize(orientation: Int) throws {
        let size = try PhotoNormalizer.pixelSize(Self.taggedPhoto(orientation: orientation))
        #expect(size == (orientation >= 5 ? PixelSize(width: 300, height: 400) : PixelSize(width: 400, height: 300)))
    }

    @Test func heifTransformsComposeLikeExif() {
        // irot turns counter-clockwise; imir axis 1 flips left-right, axis 0 top-bottom.
        #expect(Orientation.heif(rotationQuarterTurns: 0, mirrorAxis: nil) == .up)
        #expect(Orientation.heif(rotationQuarterTurns: 1, mirrorAxis: nil) == .rotatedCounterClockwise)
        #expect(Orientation.heif(rotationQuarterTurns: 3, mirrorAxis: nil) == .rotatedClockwise)
        #expect(Orientation.heif(rotationQuarterTurns: 0, mirrorAxis: 1) == .mirrored)
        #expect(Orientation.heif(rotationQuarterTurns: 0, mirrorAxis: 0) == .flipped)
        #expect(Orientation.heif(rotationQuarterTurns: 1, mirrorAxis: 1) == .transverse)
        #expect(Orientation.heif(rotationQuarterTurns: 3, mirrorAxis: 1) == .transposed)
    }
}
