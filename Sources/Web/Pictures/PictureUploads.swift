import Foundation
import HTTPServer
import Imaging
import Inventory
import Logging

/// Turns an uploaded image into a stored photo: the bytes decide the type, the header's pixel size is
/// checked before decoding, the result is squared, scaled to two sizes and stripped of metadata.
struct PictureUploads: Sendable {
    let store: PhotoStore
    let logger: Logger
    /// Decodes (photos and barcodes) run one at a time for the whole server.
    let decoding: DecodingLane

    /// Why an upload was refused: the words the page shows beside the field.
    struct Refusal: Error, Equatable {
        let text: TextKey
    }

    /// The file a form sent in `field`, or nil when the person chose none (browsers still send an
    /// empty part with no file name). A part whose file name the parser could not read arrives as a
    /// text field instead: refused, so it is never dropped without a word.
    /// A file the server's own disk could not take (full, read-only) is refused with that reason.
    static func file(_ request: Request, field: String) throws(Refusal) -> UploadedFile? {
        if let file = request.files.first(where: { $0.fieldName == field && !($0.size == 0 && $0.clientFileName.isEmpty && $0.writeError == nil) }) {
            if let code = file.writeError { throw Refusal(text: StorageFailure(errno: code).text) }
            return file
        }
        if !(request.form[field] ?? "").isEmpty { throw Refusal(text: .photoUnreadable) }
        return nil
    }

    /// Reads an uploaded file; the server already capped the body, this caps what is read anyway.
    static func bytes(of file: UploadedFile) throws(Refusal) -> [UInt8] {
        guard file.size > 0 else { throw Refusal(text: .photoEmpty) }
        guard let data = try? Data(contentsOf: file.temporaryURL, options: .alwaysMapped), data.count <= 32 * 1024 * 1024 else {
            throw Refusal(text: .photoUnreadable)
        }
        return [UInt8](data)
    }

    /// Stores the photo in `file` for the household and returns its key.
    func store(_ file: UploadedFile, crop: SquareCrop?, in scope: HouseholdScope) throws(Refusal) -> String {
        try store(bytes: try Self.bytes(of: file), crop: crop, in: scope)
    }

    /// The same for bytes from elsewhere (the online look-up's picture).
    func store(bytes: [UInt8], crop: SquareCrop?, in scope: HouseholdScope) throws(Refusal) -> String {
        let photo: NormalizedPhoto
        do {
            photo = try decoding.run { () throws(ImagingError) in try PhotoNormalizer.normalize(bytes, crop: crop) }
        } catch {
            logger.notice("photo refused", metadata: ["reason": "\(error)", "bytes": "\(bytes.count)"])
            throw Refusal(text: Self.text(error))
        }
        do {
            return try store.save(large: photo.large, small: photo.small, format: photo.format == .webp ? "webp" : "jpeg", in: scope)
        } catch {
            // The disk's own problem (full, read-only) is told as such, beside the field.
            let storage = StorageFailure(error)
            logger.error("photo not stored", metadata: ["error": "\(error)", "storage": "\(storage.map { "\($0)" } ?? "-")"])
            throw Refusal(text: storage?.text ?? .photoNotStored)
        }
    }

    /// The barcodes in a photo of one, best first.
    func barcodes(in file: UploadedFile) throws(Refusal) -> [Barcode] {
        let bytes = try Self.bytes(of: file)
        do {
            return try decoding.run { () throws(ImagingError) in try BarcodeReader.decode(bytes) }
        } catch {
            logger.notice("barcode photo refused", metadata: ["reason": "\(error)", "bytes": "\(bytes.count)"])
            throw Refusal(text: Self.text(error))
        }
    }

    static func text(_ error: ImagingError) -> TextKey {
        switch error {
        case .empty: .photoEmpty
        case .notAnImage: .photoNotImage
        case .tooLarge: .photoTooLarge
        case .damaged: .photoDamaged
        }
    }

    /// The square a script let the person choose (`x,y,side` as fractions), if any.
    static func crop(_ text: String) -> SquareCrop? {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 3, parts.allSatisfy({ $0.isFinite && (0...1).contains($0) }), parts[2] > 0 else { return nil }
        return SquareCrop(x: parts[0], y: parts[1], side: parts[2])
    }
}
