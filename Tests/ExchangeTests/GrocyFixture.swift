import CGD
import Foundation
import GRDB
import TestSupport

/// A Grocy 4.6.0 database made from Grocy's own schema (Tests/Fixtures/grocy/schema-4.6.0.sql)
/// with the rows of Tests/Fixtures/grocy/rows.sql, and Grocy's product picture folder: the
/// orange juice's picture is a JPEG drawn here, the salt's is missing, the umeboshi's is not an image.
struct GrocyFixture {
    let folder: TemporaryFolder
    var file: URL { folder.appending("grocy.db") }
    var pictures: URL { folder.appending("productpictures") }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/grocy")

    /// `extraSQL` runs after the rows (a newer migration, a column Grocy would not have).
    init(extraSQL: String = "", schemaEdit: (String) -> String = { $0 }) throws {
        folder = try TemporaryFolder("zaiko-grocy")
        let schema = try String(contentsOf: Self.fixtures.appendingPathComponent("schema-4.6.0.sql"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            // SQLite makes this table itself and refuses to be told to.
            .filter { !$0.hasPrefix("CREATE TABLE sqlite_sequence") }.joined(separator: "\n")
        let rows = try String(contentsOf: Self.fixtures.appendingPathComponent("rows.sql"), encoding: .utf8)
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in
            try db.execute(sql: schemaEdit(schema))
            try db.execute(sql: rows)
            if !extraSQL.isEmpty { try db.execute(sql: extraSQL) }
        }
        try queue.close()
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try Data(Self.jpeg(width: 640, height: 480)).write(to: pictures.appendingPathComponent("Qx81zT_orange-juice.jpg"))
        try Data("not a picture at all".utf8).write(to: pictures.appendingPathComponent("Pw2m9v_umeboshi.png"))
    }

    func remove() { folder.remove() }

    /// An orange picture with a white band, encoded by libgd.
    static func jpeg(width: Int32, height: Int32) -> [UInt8] {
        guard let image = gdImageCreateTrueColor(width, height) else { fatalError("gdImageCreateTrueColor failed") }
        defer { gdImageDestroy(image) }
        gdImageFilledRectangle(image, 0, 0, width - 1, height - 1, 0xF08C1E)
        gdImageFilledRectangle(image, 0, height * 2 / 5, width - 1, height * 3 / 5, 0xFFFFFF)
        var size: Int32 = 0
        guard let data = gdImageJpegPtr(image, &size, 90) else { fatalError("libgd could not encode") }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }
}
