import Foundation
import Gzip
import HTTPServer
import TestSupport
import Testing

/// Answers made per request (pages, JSON, SVG) are gzipped for a client that accepts gzip, on the
/// answering thread; small bodies, pictures and event streams are sent as they are.
@Suite struct PageCompressionTests {
    static let gzip = [("Accept-Encoding", "gzip, deflate, br")]

    @Test func aGzippedPageDecodesToTheBytesOfThePageSentAsItIs() throws {
        let server = try TestServer()
        let client = try server.client()
        let plain = try client.request("GET", "/page?rows=400")
        #expect(plain.status == 200)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(plain.body.count > 20_000)

        let gzipped = try client.request("GET", "/page?rows=400", headers: Self.gzip)
        #expect(gzipped.status == 200)
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.header("Vary") == "Accept-Encoding")
        #expect(gzipped.header("Content-Type") == "text/html; charset=utf-8")
        #expect(gzipped.body.count < plain.body.count / 5, "\(gzipped.body.count) bytes for \(plain.body.count)")
        #expect(Gzip.decompress(gzipped.body, limit: 1 << 20) == plain.body)

        // A HEAD says what the GET would send: the gzipped form's length.
        let head = try client.request("HEAD", "/page?rows=400", headers: Self.gzip)
        #expect(head.header("Content-Encoding") == "gzip")
        #expect(head.header("Content-Length") == "\(gzipped.body.count)")
    }

    @Test(arguments: [
        ("gzip", true), ("gzip;q=0.5, br", true), ("*", true), ("gzip;q=0", false), ("br, gzip;q=0", false), ("identity", false), ("", false),
    ])
    func theAcceptEncodingHeaderDecides(header: String, gzipped: Bool) throws {
        let server = try TestServer()
        let reply = try server.client().request("GET", "/page", headers: header.isEmpty ? [] : [("Accept-Encoding", header)])
        #expect(reply.status == 200)
        #expect((reply.header("Content-Encoding") == "gzip") == gzipped, "Accept-Encoding: \(header)")
        #expect(reply.header("Vary") == "Accept-Encoding")
        #expect((gzipped ? Gzip.decompress(reply.body, limit: 1 << 20) : reply.body) == EchoResponder.page(Parameters()).bytes)
    }

    @Test(arguments: [
        "application/json", "image/svg+xml", "text/calendar; charset=utf-8", "text/css; charset=utf-8", "text/javascript; charset=utf-8",
    ])
    func otherTextIsGzippedToo(type: String) throws {
        let server = try TestServer()
        let type = type.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let reply = try server.client().request("GET", "/page?type=\(type)", headers: Self.gzip)
        #expect(reply.header("Content-Encoding") == "gzip")
    }

    @Test(arguments: ["image/png", "application/zip", "text/event-stream", "font/woff2"])
    func compressedTypesAndEventStreamsAreSentAsTheyAre(type: String) throws {
        let server = try TestServer()
        let encoded = type.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let reply = try server.client().request("GET", "/page?type=\(encoded)", headers: Self.gzip)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Encoding") == nil, "\(type)")
        #expect(reply.header("Vary") == nil)
        #expect(reply.body == EchoResponder.page(Parameters()).bytes)
    }

    @Test func aBodySmallerThanOneSegmentIsSentAsItIs() throws {
        let server = try TestServer()
        let client = try server.client()
        // 20 rows are 1,110 bytes: under a TCP segment; 30 rows (1,670) are over it.
        let small = try client.request("GET", "/page?rows=20", headers: Self.gzip)
        #expect(small.body.count < 1460)
        #expect(small.header("Content-Encoding") == nil)
        #expect(small.header("Vary") == nil)
        #expect(try client.request("GET", "/page?rows=30", headers: Self.gzip).header("Content-Encoding") == "gzip")
    }

    /// The page handler knows only its own tag; the gzipped form has its own, and a browser that
    /// holds that form is answered 304 by it.
    @Test func theGzippedFormHasItsOwnETagAndIsRevalidatedByIt() throws {
        let server = try TestServer()
        let client = try server.client()
        let plain = try client.request("GET", "/page?etag=v7")
        #expect(plain.header("ETag") == "\"v7\"")
        let gzipped = try client.request("GET", "/page?etag=v7", headers: Self.gzip)
        #expect(gzipped.header("ETag") == "\"v7-gz\"")

        let revalidated = try client.request("GET", "/page?etag=v7", headers: Self.gzip + [("If-None-Match", "\"v7-gz\"")])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("ETag") == "\"v7-gz\"")
        #expect(revalidated.header("Vary") == "Accept-Encoding")
        #expect(revalidated.body.isEmpty)
        // Another version's tag, or the identity form's: the whole gzipped page.
        let changed = try client.request("GET", "/page?etag=v8", headers: Self.gzip + [("If-None-Match", "\"v7-gz\"")])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") == "\"v8-gz\"")
        #expect(try client.request("GET", "/page?etag=v7", headers: Self.gzip + [("If-None-Match", "\"v7\"")]).status == 200)
        // Without gzip the tag is the handler's own, and the gzipped form's tag validates nothing.
        let identity = try client.request("GET", "/page?etag=v7", headers: [("If-None-Match", "\"v7-gz\"")])
        #expect(identity.status == 200)
        #expect(identity.header("Content-Encoding") == nil)
    }

    /// An answer given on the thread that read the request (meant for files kept in memory) is
    /// never compressed there: libmicrohttpd's polling threads only send.
    @Test func anAnswerGivenOnAPollingThreadIsNotCompressed() throws {
        let server = try TestServer()
        let reply = try server.client().request("GET", "/inline?rows=400", headers: Self.gzip)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Encoding") == nil)
        #expect(reply.body == EchoResponder.page(Parameters([("rows", "400")])).bytes)
    }
}

extension Response {
    /// A body of bytes, as the tests' responder makes it.
    var bytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}
