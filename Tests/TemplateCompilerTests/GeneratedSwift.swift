import Foundation

@testable import TemplateCompiler

/// A `Templates/` folder in a temporary directory, the generator run over it, and the generated
/// Swift handed to `swiftc` together with the runtime's sources and a small view model.
struct GeneratedSwift {
    let root: URL

    init(templates: [String: String], locales: [String: [String: String]] = ["en": [:]]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-templates-\(UUID().uuidString)")
        for (name, text) in templates {
            let url = root.appendingPathComponent("Templates/\(name).mustache")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let localeDirectory = root.appendingPathComponent("Templates/locales")
        try FileManager.default.createDirectory(at: localeDirectory, withIntermediateDirectories: true)
        for (code, texts) in locales {
            try JSONSerialization.data(withJSONObject: texts).write(to: localeDirectory.appendingPathComponent("\(code).json"))
        }
    }

    func path(_ template: String) -> String { root.appendingPathComponent("Templates/\(template).mustache").path }

    func generate() throws -> String { try Generator(directory: root.appendingPathComponent("Templates")).generate() }

    /// Runs swiftc over the generated code, `model` and the runtime's sources in one module:
    /// `-typecheck` only, or building and running `main` (its standard output returned).
    func swiftc(model: String, run: Bool) throws -> (status: Int32, output: String) {
        let runtime = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/TemplateRuntime").standardized
        let sources = try FileManager.default.contentsOfDirectory(atPath: runtime.path).filter { $0.hasSuffix(".swift") }.map {
            runtime.appendingPathComponent($0).path
        }
        let generated = root.appendingPathComponent("Generated.swift")
        try generate().replacingOccurrences(of: "import TemplateRuntime\n", with: "").write(to: generated, atomically: true, encoding: .utf8)
        let main = root.appendingPathComponent("main.swift")
        try model.write(to: main, atomically: true, encoding: .utf8)
        let binary = root.appendingPathComponent("page")
        let compile = try Self.run(["swiftc", run ? "-o" : "-typecheck"] + (run ? [binary.path] : []) + sources + [generated.path, main.path])
        guard run, compile.status == 0 else { return compile }
        return try Self.run([binary.path])
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
