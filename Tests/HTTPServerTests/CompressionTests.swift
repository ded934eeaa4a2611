import Foundation
import Gzip
import HTTPServer
import TestSupport
import Testing

/// Public text files are kept gzipped as well (compressed once, when read) and sent so to a client
/// that accepts gzip; pictures and what gzip would not shrink are sent as they are.
@Suite struct CompressionTests {
    static let css = Array(String(repeating: ".row { display: flex; gap: 8px; padding: 12px 16px }\n", count: 400).utf8)
    static let png = [UInt8]([0x89, 0x50, 0x4e, 0x47]) + [UInt8](repeating: 0, count: 8000)

    static func server() throws -> TestServer {
        try TestServer(publicFiles: ["css/big.css": css, "zeros.png": png, "css/tiny.css": Array("a{}".utf8)])
    }

    @Test func aClientThatAcceptsGzipGetsTheTextGzippedAndEveryoneElseAsItIs() throws {
        let server = try Self.server()
        let client = try server.client()

        let gzipped = try client.request("GET", "/static/css/big.css", headers: [("Accept-Encoding", "gzip, deflate, br")])
        #expect(gzipped.status == 200)
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.header("Vary") == "Accept-Encoding")
        #expect(gzipped.header("Content-Type") == "text/css; charset=utf-8")
        #expect(gzipped.body.count < Self.css.count / 10, "\(gzipped.body.count) bytes for \(Self.css.count)")
        #expect(Gzip.decompress(gzipped.body, limit: 1 << 20) == Self.css)
        let gzipTag = try #require(gzipped.header("ETag"))
        #expect(gzipTag.hasSuffix("-gz\""))

        let plain = try client.request("GET", "/static/css/big.css")
        #expect(plain.status == 200)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(plain.body == Self.css)
        let plainTag = try #require(plain.header("ETag"))
        #expect(plainTag != gzipTag)

        // Each form is revalidated by its own tag.
        let revalidated = try client.request("GET", "/static/css/big.css", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzipTag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("ETag") == gzipTag)
        #expect(revalidated.header("Vary") == "Accept-Encoding")
        #expect(try client.request("GET", "/static/css/big.css", headers: [("If-None-Match", plainTag)]).status == 304)
        let otherForm = try client.request("GET", "/static/css/big.css", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", plainTag)])
        #expect(otherForm.status == 200)
        #expect(otherForm.header("Content-Encoding") == "gzip")
    }

    @Test(arguments: [
        ("gzip", true), ("GZIP;q=0.5", true), ("x-gzip", true), ("*", true), ("br, *;q=0.1", true), ("deflate, gzip ; q = 1", true),
        ("gzip;q=0", false), ("gzip;q=0.000, *", false), ("*;q=0", false), ("br", false), ("identity", false), ("", false),
    ])
    func theAcceptEncodingHeaderDecides(header: String, gzipped: Bool) throws {
        let server = try Self.server()
        let reply = try server.client().request("GET", "/static/css/big.css", headers: [("Accept-Encoding", header)])
        #expect(reply.status == 200)
        #expect((reply.header("Content-Encoding") == "gzip") == gzipped, "Accept-Encoding: \(header)")
        #expect((gzipped ? Gzip.decompress(reply.body, limit: 1 << 20) : reply.body) == Self.css)
    }

    @Test func picturesAndTextGzipWouldNotShrinkAreSentAsTheyAre() throws {
        let server = try Self.server()
        let client = try server.client()
        let picture = try client.request("GET", "/static/zeros.png", headers: [("Accept-Encoding", "gzip")])
        #expect(picture.header("Content-Encoding") == nil)
        #expect(picture.header("Vary") == nil)
        #expect(picture.body == Self.png)
        let tiny = try client.request("GET", "/static/css/tiny.css", headers: [("Accept-Encoding", "gzip")])
        #expect(tiny.header("Content-Encoding") == nil)
        #expect(tiny.header("Vary") == nil)
        #expect(tiny.text == "a{}")
    }

    @Test func anEditedFileIsCompressedAgain() throws {
        let server = try Self.server()
        let client = try server.client()
        let edited = Array(String(repeating: ".item { color: purple }\n", count: 300).utf8)
        try Data(edited).write(to: server.publicFolder.appendingPathComponent("css/big.css"))
        try waitUntil("the edited file is served gzipped") {
            let reply = try? client.request("GET", "/static/css/big.css", headers: [("Accept-Encoding", "gzip")])
            return reply.flatMap { Gzip.decompress($0.body, limit: 1 << 20) } == edited
        }
    }
}

/// The gzip format itself: what `compress` writes, `decompress` and gzip's own tools read back.
@Suite struct GzipFormatTests {
    @Test(arguments: [0, 1, 100, 70_000])
    func aRoundTripGivesTheBytesBack(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Gzip.decompress(Gzip.compress(bytes), limit: count) == bytes)
    }

    @Test func theSystemsGunzipReadsIt() throws {
        let text = String(repeating: "在庫 stock ", count: 500)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-gzip-\(UUID().uuidString).gz")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Gzip.compress(Array(text.utf8))).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == text)
    }

    @Test func damagedTruncatedOrTooLongStreamsAreRefused() {
        let bytes = Array(String(repeating: "milk, eggs, rice\n", count: 200).utf8)
        let good = Gzip.compress(bytes)
        var flipped = good
        flipped[good.count / 2] ^= 0xff
        #expect(Gzip.decompress(flipped, limit: 1 << 20) == nil)
        #expect(Gzip.decompress(Array(good.dropLast(3)), limit: 1 << 20) == nil)
        #expect(Gzip.decompress(Array("not gzip at all, not gzip at all".utf8), limit: 1 << 20) == nil)
        #expect(Gzip.decompress(good, limit: bytes.count - 1) == nil)
        #expect(Gzip.decompress(good, limit: bytes.count) == bytes)
    }
}
