/// The version of this build, recorded in every backup's manifest and printed by `zaiko --version`.
enum ZaikoVersion {
    static let current = "0.14.0"
}
