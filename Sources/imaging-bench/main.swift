// Times PhotoNormalizer.normalize on one file: `imaging-bench photo.jpg [runs] [--barcode]`.
import Foundation
import Imaging

let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let barcodeMode = CommandLine.arguments.contains("--barcode")
guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("usage: imaging-bench FILE [RUNS] [--barcode]\n".utf8))
    exit(2)
}
let runs = arguments.dropFirst().first.flatMap(Int.init) ?? 10
let bytes = [UInt8](data)

var timings: [Double] = []
let clock = ContinuousClock()
for _ in 0..<runs {
    let start = clock.now
    do {
        if barcodeMode {
            let found = try BarcodeReader.decode(bytes)
            if timings.isEmpty { print("barcodes:", found.map { "\($0.symbology.rawValue) \($0.text)" }) }
        } else {
            let photo = try PhotoNormalizer.normalize(bytes)
            if timings.isEmpty {
                print("source \(photo.source), large \(photo.large.count) B, small \(photo.small.count) B (\(photo.format.rawValue))")
            }
        }
    } catch {
        print("failed: \(error)")
        exit(1)
    }
    let elapsed = clock.now - start
    timings.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
timings.sort()
let median = timings[timings.count / 2]
print(String(format: "%@: %d runs, min %.1f ms, median %.1f ms, max %.1f ms",
             barcodeMode ? "barcode" : "normalize", runs, timings[0], median, timings[timings.count - 1]))
