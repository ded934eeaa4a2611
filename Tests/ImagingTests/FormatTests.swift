import Testing

@testable import Imaging

@Suite("Image formats")
struct FormatDetectionTests {
    @Test func textIsNotAnImage() {
        #expect(ImageFormat.detect(Array("hello".utf8)) == nil)
    }
}
