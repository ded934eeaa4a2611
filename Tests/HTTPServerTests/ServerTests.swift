import Foundation
import HTTPServer
import Inventory
import TestSupport
import Testing

@Suite("HTTP server against a live libmicrohttpd on port 0")
struct ServerTests {
    @Test func decodesQueryWithRepeatedNamesAndUTF8() throws {
        let server = try TestServer()
        let reply = try server.client().request("GET", "/echo/%E7%89%9B%E4%B9%B3?kind=meat&kind=fish&q=%E7%89%9B%E4%B9%B3+milk&empty=")
        let echo = try reply.echo()
        #expect(reply.status == 200)
        #expect(echo.path == "/echo/牛乳")
        #expect(echo.query == [["kind", "meat"], ["kind", "fish"], ["q", "牛乳 milk"], ["empty", ""]])
        #expect(echo.client == "127.0.0.1")
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        let server = try TestServer()
        let client = try server.client()
        for index in 0..<5 {
            let reply = try client.request("GET", "/echo?n=\(index)")
            #expect(reply.status == 200)
            #expect(reply.header("connection")?.lowercased() != "close")
            #expect(try reply.echo().query == [["n", "\(index)"]])
        }
    }

    @Test func readsAnURLEncodedForm() throws {
        let server = try TestServer()
        let body = Array("name=%E7%89%9B%E4%B9%B3&note=two+words&name=eggs&empty=".utf8)
        let reply = try server.client().request(
            "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
        #expect(try reply.echo().form == [["name", "牛乳"], ["note", "two words"], ["name", "eggs"], ["empty", ""]])
    }

    /// What the responder worked out from the head comes back with the whole request, once.
    @Test func handsTheAdmissionNoteBackWithTheRequest() throws {
        let server = try TestServer()
        let client = try server.client()
        let posted = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=1".utf8))
        #expect(try posted.echo().note == "admitted POST /echo, note nil")
        let small = try client.request("GET", "/small")
        #expect(try small.echo().note == nil)
    }

    @Test func streamsAMultipartUploadToATemporaryFileAndRemovesIt() throws {
        let server = try TestServer()
        let file = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let boundary = "zaikoBoundary7MA4YWxk"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n牛乳\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"../../etc/x.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += file
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        let reply = try server.client().request(
            "POST", "/echo", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
        let echo = try reply.echo()
        #expect(echo.form == [["name", "牛乳"]])
        #expect(echo.files.count == 1)
        #expect(echo.files.first?.size == file.count)
        #expect(echo.files.first?.sha256 == Crypto.hex(Crypto.sha256(file)))
        #expect(echo.files.first?.field == "photo")
        // The temporary file is gone once the request is over.
        try waitUntil("uploads emptied") { server.uploadsLeft().isEmpty }
    }

    @Test func anUploadTheDiskCannotTakeIsMarkedAndTheRestOfTheFormArrives() throws {
        // The temporary folder is gone (as on a disk that refuses every new file): no 500 from the
        // core; the application gets every text field and the file part marked with the errno.
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-no-such-folder-\(UUID().uuidString)")
        let server = try TestServer(configure: { $0.uploadDirectory = missing })
        let boundary = "zaikoBoundaryDiskFull"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n牛乳\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"milk.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += [UInt8](repeating: 7, count: 256 * 1024)
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nTyped after the picture\r\n".utf8)
        body += Array("--\(boundary)--\r\n".utf8)
        let reply = try server.client().request(
            "POST", "/echo", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
        #expect(reply.status == 200)
        let echo = try reply.echo()
        #expect(echo.form == [["name", "牛乳"], ["note", "Typed after the picture"]])
        #expect(echo.files.count == 1)
        #expect(echo.files.first?.writeError == ENOENT)
        #expect(echo.files.first?.size == 0)
    }

    @Test func refusesAnOversizedBodyWith413AndLeavesNoFile() throws {
        let server = try TestServer(maxBodyBytes: 1024 * 1024)
        let boundary = "b0undary"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"big.jpg\"\r\n\r\n".utf8)
        body += [UInt8](repeating: 7, count: 2 * 1024 * 1024)
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        let client = try server.client()
        let reply = try client.request(
            "POST", "/echo", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
        #expect(reply.status == 413)
        #expect(reply.header("connection")?.lowercased() == "close")
        try waitUntil("uploads emptied") { server.uploadsLeft().isEmpty }
    }

    @Test func refusesAChunkedBodyWithoutReadingIt() throws {
        // No browser form is sent in chunks; without a Content-Length the body is not read at all.
        let server = try TestServer(maxBodyBytes: 64 * 1024)
        let client = try server.client()
        var head = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: multipart/form-data; boundary=b\r\n\r\n"
        let part = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n\r\n"
        head += String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n"
        client.send(Array(head.utf8))
        let chunk = [UInt8](repeating: 65, count: 32 * 1024)
        for _ in 0..<8 { client.send(Array("8000\r\n".utf8) + chunk + Array("\r\n".utf8)) }
        let reply = try client.readReply()
        #expect(reply.status == 411)
        #expect(reply.header("connection")?.lowercased() == "close")
        try waitUntil("uploads emptied") { server.uploadsLeft().isEmpty }
    }

    @Test func refusesTextFieldsBeyondTheInMemoryLimit() throws {
        // 2 MB of form text is under the 20 MB body limit but over the 1 MB kept in memory.
        let server = try TestServer()
        let body = Array("note=".utf8) + [UInt8](repeating: 97, count: 2 * 1024 * 1024)
        let reply = try server.client().request("POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
        #expect(reply.status == 413)
        let raw = try server.client().request(
            "POST", "/echo", headers: [("Content-Type", "application/json")], body: [UInt8](repeating: 32, count: 2 * 1024 * 1024))
        #expect(raw.status == 413)

        // Inside multipart (where files may be large) a text field over the limit is refused once read.
        let boundary = "b0undary"
        var multipart = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n".utf8)
        multipart += [UInt8](repeating: 97, count: 2 * 1024 * 1024) + Array("\r\n--\(boundary)--\r\n".utf8)
        let field = try server.client().request(
            "POST", "/echo", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: multipart)
        #expect(field.status == 413)
        #expect(field.header("connection")?.lowercased() == "close")
    }

    @Test func leavesMalformedPercentEscapesAsTheyAre() throws {
        let server = try TestServer()
        let echo = try server.client().request("GET", "/echo/%-1/%%20/%zz/%4?q=%+f").echo()
        #expect(echo.path == "/echo/%-1/% /%zz/%4")
        #expect(echo.query == [["q", "% f"]])
    }

    @Test func answersUnknownPathsWith404() throws {
        let server = try TestServer()
        #expect(try server.client().request("GET", "/nothing/here").status == 404)
    }

    @Test func servesStaticFilesWithValidators() throws {
        let server = try TestServer()
        let client = try server.client()
        let first = try client.request("GET", "/static/css/app.css")
        #expect(first.status == 200)
        #expect(first.text == "body { color: green }\n")
        #expect(first.header("content-type") == "text/css; charset=utf-8")
        #expect(first.header("cache-control") == "public, no-cache")
        let etag = try #require(first.header("etag"))
        let lastModified = try #require(first.header("last-modified"))

        let byTag = try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", etag)])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        let byDate = try client.request("GET", "/static/css/app.css", headers: [("If-Modified-Since", lastModified)])
        #expect(byDate.status == 304)
        let otherTag = try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", "\"other\"")])
        #expect(otherTag.status == 200)

        let head = try client.request("HEAD", "/static/css/app.css")
        #expect(head.status == 200)
        #expect(head.header("content-length") == "22")
        #expect(head.body.isEmpty)
        // The connection still works after a HEAD: no body bytes were left behind.
        #expect(try client.request("GET", "/echo").status == 200)
    }

    @Test func servesAnEditedStaticFileWithNewValidators() throws {
        let server = try TestServer()
        let client = try server.client()
        let first = try client.request("GET", "/static/css/app.css")
        let etag = try #require(first.header("etag"))
        // Another size and time: the file kept in memory is read again (checked once a second).
        let file = server.publicFolder.appendingPathComponent("css/app.css")
        try Data("body { color: purple; margin: 0 }\n".utf8).write(to: file)
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        try waitUntil("the edited file is served") { (try? client.request("GET", "/static/css/app.css").text) == "body { color: purple; margin: 0 }\n" }
        let edited = try client.request("GET", "/static/css/app.css")
        #expect(edited.header("etag") != etag)
        #expect(edited.header("last-modified") == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(edited.header("content-length") == "34")
        #expect(try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", etag)]).status == 200)
        let current = try #require(edited.header("etag"))
        #expect(try client.request("GET", "/static/css/app.css", headers: [("If-None-Match", current)]).status == 304)
        #expect(try client.request("GET", "/static/css/app.css", headers: [("If-Modified-Since", "Tue, 14 Nov 2023 22:13:20 GMT")]).status == 304)
        #expect(try client.request("GET", "/static/css/app.css", headers: [("If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT")]).status == 200)

        // Removed: not found, as before it was kept in memory.
        try FileManager.default.removeItem(at: file)
        try waitUntil("the removed file is gone") { (try? client.request("GET", "/static/css/app.css").status) == 404 }
    }

    @Test func servesFilesAddedAfterTheStartAndLargeFilesFromDisk() throws {
        let server = try TestServer()
        let client = try server.client()
        try Data("console.log(1)\n".utf8).write(to: server.publicFolder.appendingPathComponent("late.js"))
        let late = try client.request("GET", "/static/late.js")
        #expect(late.status == 200)
        #expect(late.text == "console.log(1)\n")
        #expect(late.header("content-type") == "text/javascript; charset=utf-8")
        // Spelled with an empty segment: the same file, found on disk.
        #expect(try client.request("GET", "/static/css//app.css").text == "body { color: green }\n")

        let large = [UInt8](repeating: 0x61, count: (1 << 20) + 1)
        try Data(large).write(to: server.publicFolder.appendingPathComponent("large.txt"))
        let reply = try client.request("GET", "/static/large.txt")
        #expect(reply.status == 200)
        #expect(reply.body == large)
        let etag = try #require(reply.header("etag"))
        #expect(try client.request("GET", "/static/large.txt", headers: [("If-None-Match", etag)]).status == 304)
    }

    @Test(arguments: [
        "/static/../secret.txt",
        "/static/..%2fsecret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/%2e%2e%2fsecret.txt",
        "/static/css/../../secret.txt",
        "/static/css/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/static/./css/app.css",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/..\\secret.txt",
        "/static/link-out/secret.txt",
        "/static/css/app.css%00.txt",
    ])
    func refusesPathsThatLeaveThePublicFolder(path: String) throws {
        let server = try TestServer()
        // A symlink inside Public/ that points outside it.
        try? FileManager.default.createSymbolicLink(
            at: server.publicFolder.appendingPathComponent("link-out"), withDestinationURL: server.publicFolder.deletingLastPathComponent())
        let reply = try server.client().request("GET", path)
        #expect(reply.status == 404)
        #expect(!reply.text.contains("secret"))
        #expect(!reply.text.contains("root:"))
    }

    @Test func readsCookies() throws {
        let server = try TestServer()
        let reply = try server.client().request("GET", "/echo", headers: [("Cookie", "zaiko_session=abc; theme=\"dark\"")])
        #expect(try reply.echo().cookies == ["zaiko_session": "abc", "theme": "dark"])
    }

    @Test(arguments: [
        "zaiko_session=abc; theme=\"dark\"", " theme = dark ;zaiko_session=abc", "theme=a;theme=b", "=x; theme", "theme=\"\"",
        "theme=\"", "a=1;;theme=\t\"d=ark\"\t", "", "THEME=no; theme=yes", "theme=牛乳",
    ])
    func findsOneCookieAsTheDictionaryHasIt(header: String) {
        let request = Request(method: "GET", path: "/", headers: Headers([("Cookie", header)]))
        for name in ["theme", "zaiko_session", "a", "THEME", "missing", ""] {
            #expect(request.cookie(name) == request.cookies[name], "\(name) in \(header)")
        }
    }

    @Test func reportsAPortInUseAsOneSentence() throws {
        let first = try TestServer()
        let second = Server(
            configuration: ServerConfiguration(host: "127.0.0.1", port: first.port, uploadDirectory: first.uploads),
            responder: EchoResponder(staticFiles: try StaticFiles(root: first.publicFolder)))
        #expect(throws: ServerError.self) { try second.start() }
        do { try second.start() } catch let error as ServerError {
            #expect(error.description.contains("already in use"))
        }
    }
}
