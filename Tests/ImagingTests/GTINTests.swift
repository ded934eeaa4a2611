import Testing
@testable import Imaging

@Suite struct GTINTests {
}
