import Foundation
import HTTPServer
import TestSupport
import Testing

/// A public file named by its version (`?v=<content hash>`) is kept by browsers for good; the plain
/// address, and one naming a version the file no longer has, are the current file, revalidated.
@Suite struct VersionedStaticFilesTests {
    static let immutable = "public, max-age=31536000, immutable"
    static let revalidated = "public, no-cache"

    @Test func theVersionIsTheContentsHash() throws {
        let server = try TestServer()
        let files = try StaticFiles(root: server.publicFolder)
        // FNV-1a (64 bits) of "body { color: green }\n", as PHP's hash('fnv1a64', …) gives it.
        #expect(files.version(of: "css/app.css") == "e9c704874d7749af")
        #expect(files.version(of: "css/missing.css") == nil)
        #expect(files.version(of: "../secret.txt") == nil)
    }

    @Test func theCurrentVersionIsImmutableThePlainAddressIsRevalidated() throws {
        let server = try TestServer()
        let client = try server.client()
        let version = try #require(try StaticFiles(root: server.publicFolder).version(of: "css/app.css"))

        let versioned = try client.request("GET", "/static/css/app.css?v=\(version)")
        #expect(versioned.status == 200)
        #expect(versioned.text == "body { color: green }\n")
        #expect(versioned.header("Cache-Control") == Self.immutable)
        let etag = try #require(versioned.header("ETag"))
        let revalidated = try client.request("GET", "/static/css/app.css?v=\(version)", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("Cache-Control") == Self.immutable)

        let plain = try client.request("GET", "/static/css/app.css")
        #expect(plain.text == "body { color: green }\n")
        #expect(plain.header("Cache-Control") == Self.revalidated)
        #expect(plain.header("ETag") == etag)
        #expect(try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", etag)]).status == 304)
    }

    /// A page made before an edit names the old version: its browser gets the current file, not
    /// kept for good, so the next page's new address is fetched once and kept from then on.
    @Test func anEditedFileGetsANewVersionAndTheOldAddressGetsTheCurrentFileRevalidated() throws {
        let server = try TestServer()
        let client = try server.client()
        let files = try StaticFiles(root: server.publicFolder)
        let old = try #require(files.version(of: "css/app.css"))
        try Data("body { color: purple }\n".utf8).write(to: server.publicFolder.appendingPathComponent("css/app.css"))
        // Both copies (the server's and this one) read the file again within a second.
        try waitUntil("the edited file is served") { (try? client.request("GET", "/static/css/app.css").text) == "body { color: purple }\n" }
        try waitUntil("the edited file has a new version") { files.version(of: "css/app.css") != old }
        let new = try #require(files.version(of: "css/app.css"))

        let stale = try client.request("GET", "/static/css/app.css?v=\(old)")
        #expect(stale.status == 200)
        #expect(stale.text == "body { color: purple }\n")
        #expect(stale.header("Cache-Control") == Self.revalidated)
        let unknown = try client.request("GET", "/static/css/app.css?v=0000000000000000")
        #expect(unknown.text == "body { color: purple }\n")
        #expect(unknown.header("Cache-Control") == Self.revalidated)
        #expect(try client.request("GET", "/static/css/app.css?v=\(new)").header("Cache-Control") == Self.immutable)
    }

    @Test func aGzippedFileNamedByItsVersionIsImmutableToo() throws {
        let css = Array(String(repeating: ".row { display: flex; gap: 8px }\n", count: 300).utf8)
        let server = try TestServer(publicFiles: ["css/big.css": css])
        let version = try #require(try StaticFiles(root: server.publicFolder).version(of: "css/big.css"))
        let reply = try server.client().request("GET", "/static/css/big.css?v=\(version)", headers: [("Accept-Encoding", "gzip")])
        #expect(reply.header("Content-Encoding") == "gzip")
        #expect(reply.header("Cache-Control") == Self.immutable)
        #expect(reply.header("ETag")?.hasSuffix("-gz\"") == true)
    }
}
