import CMicroHTTPD
import Foundation

/// Everything gathered about one request while libmicrohttpd reads it. Lives from the first
/// access-handler call until libmicrohttpd reports the request completed (also when aborted).
final class RequestState: @unchecked Sendable {
    // Used by one thread at a time: the libmicrohttpd thread that reads the connection, or the
    // answering thread while the connection is suspended (the queue's lock and libmicrohttpd's
    // resume order the two).
    let method: String
    let path: String
    let startedAt: ContinuousClock.Instant
    var headers = Headers()
    var query = Parameters()
    var clientAddress = ""
    /// Read over the TLS listener.
    var isSecure = false
    /// The connection's deadlines; nil only if libmicrohttpd did not report the connection.
    var connection: ConnectionGuard.Connection?
    /// Set at header time from the responder's `BodyLimit`.
    var maxBodyBytes = 0
    var maxInMemoryBytes = 0
    var allowsFiles = false
    let uploadDirectory: URL
    /// Bytes of text fields or raw body held in memory so far.
    private var inMemoryBytes = 0

    var postProcessor: OpaquePointer?
    var bodyBytes = 0
    var rawBody: [UInt8] = []
    /// Form values as raw bytes until the body is complete (a value may come in pieces).
    var fieldBytes: [(name: String, value: [UInt8])] = []
    var files: [UploadedFile] = []
    /// The part being written: its descriptor (nil once a write failed: the rest of it is skipped).
    private var openFile: (descriptor: Int32?, index: Int)?
    /// Set when the body cannot be used: 400, 411 or 413.
    var refusal: Int?
    /// The responder's answer at header time, sent without reading the body.
    var immediateAnswer: Response?
    /// What the responder kept from the head for answering (`Admission.read`).
    var admissionNote: (any Sendable)?
    var answered = false
    /// The answer an answering thread made, sent once the connection is resumed.
    var readyAnswer: Response?
    /// Set when the server stopped before this request's turn: its connection is closed unanswered.
    var dropped = false

    init(method: String, path: String, uploadDirectory: URL) {
        self.method = method
        self.path = path
        self.startedAt = .now
        self.uploadDirectory = uploadDirectory
    }

    /// Decided from the headers alone: answered without reading any of the body.
    var answersBeforeBody: Bool { refusal != nil || immediateAnswer != nil }

    /// Takes a piece of the body. Returns false when the connection should be dropped.
    func consume(_ data: UnsafePointer<CChar>, count: Int) -> Bool {
        bodyBytes += count
        if bodyBytes > maxBodyBytes {
            refusal = 413
            return false
        }
        if let postProcessor {
            if MHD_post_process(postProcessor, data, count) == .NO { refusal = refusal ?? 400 }
        } else {
            guard keepInMemory(count) else { return false }
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                rawBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        return true
    }

    /// Called once the whole body has arrived.
    func finishBody() {
        if let postProcessor {
            // Destroying flushes the last field; NO means the body ended in the middle of a part.
            if MHD_destroy_post_processor(postProcessor) == .NO { refusal = refusal ?? 400 }
            self.postProcessor = nil
        }
        closeOpenFile()
    }

    /// One piece of a form value or file part, from the post processor.
    func receive(field name: String, fileName: String?, contentType: String?, data: UnsafePointer<CChar>?, offset: UInt64, count: Int) -> Bool {
        let bytes = data.map { UnsafeRawBufferPointer(start: $0, count: count) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        guard let fileName else {
            guard keepInMemory(count) else { return false }
            if offset == 0 || fieldBytes.last?.name != name {
                fieldBytes.append((name, Array(bytes)))
            } else {
                fieldBytes[fieldBytes.count - 1].value.append(contentsOf: bytes)
            }
            return true
        }
        if offset == 0 || openFile == nil {
            closeOpenFile()
            // A file input left empty arrives as a part with an empty name and no bytes.
            if fileName.isEmpty && count == 0 { return true }
            // Files only where the responder allowed them (routes that take uploads, for members
            // who may use them): nothing reaches the disk before that.
            guard allowsFiles else {
                refusal = 413
                return false
            }
            let url = uploadDirectory.appendingPathComponent("upload-\(UUID().uuidString).part")
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            files.append(UploadedFile(fieldName: name, clientFileName: fileName, declaredContentType: contentType, temporaryURL: url, size: 0))
            openFile = (nil, files.count - 1)
            // The server's own disk refused (full, read-only): the part is marked and skipped, and
            // the rest of the form still arrives, so the page comes back with what was typed.
            guard descriptor >= 0 else { return failWrite(errno) }
            openFile = (descriptor, files.count - 1)
        }
        guard let (writing, index) = openFile else { return false }
        guard let descriptor = writing else { return true }
        var written = 0
        while written < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                return failWrite(errno)
            }
            written += n
        }
        let file = files[index]
        files[index] = UploadedFile(
            fieldName: file.fieldName, clientFileName: file.clientFileName,
            declaredContentType: file.declaredContentType, temporaryURL: file.temporaryURL, size: file.size + count)
        return true
    }

    /// The open part could not be written: its file goes, the part is marked with `code`, and its
    /// remaining bytes are skipped.
    private func failWrite(_ code: Int32) -> Bool {
        guard let (descriptor, index) = openFile else { return true }
        if let descriptor { close(descriptor) }
        let file = files[index]
        unlink(file.temporaryURL.path)
        files[index] = UploadedFile(
            fieldName: file.fieldName, clientFileName: file.clientFileName, declaredContentType: file.declaredContentType,
            temporaryURL: file.temporaryURL, size: 0, writeError: code)
        openFile = (nil, index)
        return true
    }

    /// Counts bytes about to be held in memory; past the limit the request is refused with 413.
    private func keepInMemory(_ count: Int) -> Bool {
        inMemoryBytes += count
        if inMemoryBytes > maxInMemoryBytes {
            refusal = 413
            return false
        }
        return true
    }

    private func closeOpenFile() {
        if let descriptor = openFile?.descriptor { close(descriptor) }
        openFile = nil
    }

    func makeRequest() -> Request {
        let form = Parameters(fieldBytes.map { ($0.name, String(decoding: $0.value, as: UTF8.self)) })
        var request = Request(
            method: method, path: path, query: query, headers: headers, form: form, files: files,
            body: rawBody, clientAddress: clientAddress, startedAt: startedAt)
        request.isSecure = isSecure
        request.admissionNote = admissionNote
        return request
    }

    /// Removes whatever upload is still in the temporary folder: the request is over.
    func cleanUp() {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
        postProcessor = nil
        closeOpenFile()
        for file in files { unlink(file.temporaryURL.path) }
    }
}
