import Foundation

/// The names inside a backup archive. A restore accepts these and nothing else, so an entry like
/// `../../etc/x` or `/etc/passwd` never reaches the file system.
enum ArchiveLayout {
    static let manifest = "manifest.json"
    static let database = "zaiko.sqlite"
    static let photosFolder = "photos/"
    /// A manifest is a few hundred bytes per photo; anything far larger is not one of ours.
    static let largestManifest = 64 << 20

    static func photoEntry(_ fileName: String) -> String { photosFolder + fileName }

    /// True for a name PhotoStore gives a file: `<32 hex digits>-<512|128>.<jpg|webp>`.
    static func isPhotoFileName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32,
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return false }
        return ["512.jpg", "128.jpg", "512.webp", "128.webp"].contains(String(parts[1]))
    }

    /// True for the database and for photos named as PhotoStore names them; false for everything
    /// else, above all paths that climb out (`..`) or start at the root.
    static func isAllowedFile(_ path: String) -> Bool {
        if path == database { return true }
        guard path.hasPrefix(photosFolder) else { return false }
        return isPhotoFileName(String(path.dropFirst(photosFolder.count)))
    }

    /// The two files of a photo row.
    static func photoFiles(key: String, format: String) -> [String] {
        let ext = format == "webp" ? "webp" : "jpg"
        return ["\(key)-512.\(ext)", "\(key)-128.\(ext)"]
    }
}
