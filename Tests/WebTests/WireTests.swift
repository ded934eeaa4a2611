import Foundation
import HTTPServer
import Outbound
import TestSupport
import Testing

@testable import Web

/// Light on the wire, over a real listener: pages gzipped for browsers that accept it, and every
/// public file a page names carries its version, so a browser keeps it for good.
struct WireTests {
    static let gzip = [("Accept-Encoding", "gzip, deflate, br")]

    /// URLSession asks for gzip and decodes what it gets: the length sent is the Content-Length.
    @Test func theStockPageGzippedIsTheSamePage() async throws {
        let live = try await PageSnapshotTests.Live()
        let plain = try await live.get("/folders/1", headers: [("Accept-Encoding", "identity")])
        let gzipped = try await live.get("/folders/1", headers: Self.gzip)
        #expect(plain.status == 200)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.header("Vary") == "Accept-Encoding")
        #expect(gzipped.header("Cache-Control") == "no-store")
        let sent = try #require(gzipped.header("Content-Length").flatMap(Int.init))
        #expect(sent < plain.body.count / 4, "\(sent) bytes for \(plain.body.count)")
        #expect(gzipped.body == plain.body)
        let refused = try await live.get("/folders/1", headers: [("Accept-Encoding", "gzip;q=0")])
        #expect(refused.header("Content-Encoding") == nil)
        #expect(refused.body == plain.body)
    }

    /// The layout's files, folder icons and pictures: each named by its version, kept for a year.
    @Test func everyPublicFileAPageNamesIsVersionedAndImmutable() async throws {
        let live = try await PageSnapshotTests.Live()
        var addresses: Set<String> = []
        for path in ["/", "/folders/1"] {
            let page = try await live.get(path)
            #expect(!page.text.contains("src=\"/static/") || page.text.staticAddresses.allSatisfy { $0.contains("?v=") })
            addresses.formUnion(page.text.staticAddresses)
        }
        #expect(addresses.contains { $0.hasPrefix("/static/css/app.css?v=") })
        #expect(addresses.contains { $0.hasPrefix("/static/js/app.js?v=") })
        #expect(addresses.contains { $0.hasPrefix("/static/icons/folders/") })
        #expect(addresses.count > 6, "\(addresses)")
        for address in addresses {
            #expect(address.contains("?v="), "\(address)")
            let file = try await live.get(address)
            #expect(file.status == 200, "\(address)")
            #expect(file.header("Cache-Control") == StaticFiles.versionedCacheControl, "\(address)")
        }
        let plain = try await live.get("/static/css/app.css")
        #expect(plain.header("Cache-Control") == "public, no-cache")
    }

    /// The server re-reads an edited public file within a second; the next page names its new version.
    @Test func anEditedStylesheetHasANewAddressOnTheNextPage() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Public"), to: root.appendingPathComponent("Public"))
        let live = try await PageSnapshotTests.Live(resources: root)
        func stylesheet() async throws -> String {
            try #require(try await live.get("/folders/1").text.staticAddresses.first { $0.hasPrefix("/static/css/app.css?v=") })
        }
        let before = try await stylesheet()
        let css = root.appendingPathComponent("Public/css/app.css")
        try Data((try Data(contentsOf: css)) + Data("\n.edited { color: purple }\n".utf8)).write(to: css)
        try await eventually("the edited stylesheet is read again") { live.app.renderer.staticURLs("css/app.css") != before }
        let after = try await stylesheet()
        #expect(after != before)
        let edited = try await live.get(after)
        #expect(String(decoding: edited.body, as: UTF8.self).hasSuffix(".edited { color: purple }\n"))
        #expect(edited.header("Cache-Control") == StaticFiles.versionedCacheControl)
        // An old page's address: the current file, revalidated.
        let old = try await live.get(before)
        #expect(old.body == edited.body)
        #expect(old.header("Cache-Control") == "public, no-cache")
    }
}

extension OutboundResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
}

extension String {
    /// Every `/static/…` address in `src` and `href` attributes.
    var staticAddresses: Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?:src|href)="(/static/[^"]+)""#)
        return Set(
            pattern.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { match in
                Range(match.range(at: 1), in: self).map { String(self[$0]) }
            })
    }
}
