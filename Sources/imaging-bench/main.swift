// Times the photo pipeline on one file:
//   imaging-bench FILE [RUNS] [--barcode]    normalise (or read barcodes) RUNS times, print min/median
//   imaging-bench --make-photo FILE [WxH]    write the 12 MP (or WxH) sample photo (EXIF orientation 6)
import Foundation
import Imaging

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let options = Set(CommandLine.arguments.dropFirst().filter { $0.hasPrefix("--") })
let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
guard let path = arguments.first else { fail("usage: imaging-bench FILE [RUNS] [--barcode] | --make-photo FILE") }

if options.contains("--make-photo") {
    // An optional WIDTHxHEIGHT after the file draws a larger photo (the memory bench uses 49 MP).
    let size = arguments.dropFirst().first.map { $0.split(separator: "x").compactMap { Int($0) } } ?? [4000, 3000]
    guard size.count == 2, let photo = SamplePhoto.make(width: size[0], height: size[1]) else { fail("could not draw the sample photo") }
    guard FileManager.default.createFile(atPath: path, contents: Data(photo)) else { fail("cannot write \(path)") }
    exit(0)
}

guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
let runs = max(1, arguments.dropFirst().first.flatMap(Int.init) ?? 10)
let bytes = [UInt8](data)
let barcodeMode = options.contains("--barcode")

var timings: [Double] = []
let clock = ContinuousClock()
for run in 0..<runs {
    let start = clock.now
    do {
        if barcodeMode {
            let found = try BarcodeReader.decode(bytes)
            if run == 0 { print("barcodes:", found.map { "\($0.symbology.rawValue) \($0.text)" }) }
        } else {
            let photo = try PhotoNormalizer.normalize(bytes)
            if run == 0 {
                print("source \(photo.source), large \(photo.large.count) B, small \(photo.small.count) B (\(photo.format.rawValue))")
            }
        }
    } catch {
        fail("failed: \(error)")
    }
    let elapsed = clock.now - start
    timings.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
timings.sort()
print(
    String(
        format: "%@ %@: %d runs, min %.1f ms, median %.1f ms, max %.1f ms",
        barcodeMode ? "barcode" : "normalize", (path as NSString).lastPathComponent,
        runs, timings[0], timings[timings.count / 2], timings[timings.count - 1]))
