import Foundation
import Imaging
import Inventory

/// Product pictures from Grocy's picture folder (`data/storage/productpictures/`) through the
/// same normalisation as an upload. The files are written before the import's transaction; the
/// caller inserts their rows in it and removes the files if it fails.
struct GrocyPictures {
    struct Written {
        var key: String
        var format: String
    }

    /// The largest picture file read, as for an upload.
    static let maximumBytes = 32 * 1024 * 1024

    /// The picture of each product that has one, by Grocy product id.
    static func write(_ products: [GrocyData.Product], from folder: URL?, into store: PhotoStore, report: inout GrocyReport) throws -> [Int64: Written] {
        var byFile: [String: Written] = [:]
        var byProduct: [Int64: Written] = [:]
        do {
            for product in products {
                guard let fileName = product.pictureFileName?.trimmingCharacters(in: .whitespaces), !fileName.isEmpty else { continue }
                guard let folder else {
                    report.skip(.picturesWithoutFolder, product.name)
                    continue
                }
                if let written = byFile[fileName] {
                    byProduct[product.id] = written
                    continue
                }
                guard let bytes = read(fileName, in: folder) else {
                    report.skip(.missingPicture, "\(product.name) (\(fileName))")
                    continue
                }
                let photo: NormalizedPhoto
                do {
                    photo = try PhotoNormalizer.normalize(bytes)
                } catch {
                    report.skip(.undecodablePicture, "\(product.name) (\(fileName))")
                    continue
                }
                let format = photo.format == .webp ? "webp" : "jpeg"
                let written = Written(key: try store.writeFiles(large: photo.large, small: photo.small, format: format), format: format)
                byFile[fileName] = written
                byProduct[product.id] = written
            }
        } catch {
            remove(Array(byFile.values), from: store)
            throw error
        }
        return byProduct
    }

    static func remove(_ written: [Written], from store: PhotoStore) {
        for photo in written { store.removeFiles(key: photo.key, format: photo.format) }
    }

    /// The file's bytes: a plain name inside the folder only (the name comes from someone else's
    /// database), and a regular file there, never a symbolic link (which could point anywhere on
    /// the machine): opened with `O_NOFOLLOW`, and checked on the open descriptor.
    static func read(_ fileName: String, in folder: URL) -> [UInt8]? {
        guard !fileName.contains("/"), fileName != ".", fileName != ".." else { return nil }
        let descriptor = open(folder.appendingPathComponent(fileName).path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumBytes,
            let data = try? file.readToEnd() ?? Data()
        else { return nil }
        return [UInt8](data.prefix(maximumBytes))
    }
}
