import Foundation

/// Runs a command-line tool the tests need (openssl, curl, zint, heif-enc, python3; see the
/// Makefile's test packages) through /usr/bin/env: its exit status and what it printed, standard
/// output and standard error together (one pipe, so neither can fill up and stall the tool).
@discardableResult
public func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// `runTool` for a tool that must succeed: its output, or `ToolFailure` with what it printed.
@discardableResult
public func runToolOrThrow(_ name: String, _ arguments: [String]) throws -> String {
    let (status, output) = try runTool(name, arguments)
    guard status == 0 else { throw ToolFailure(description: "\(([name] + arguments).joined(separator: " ")) exited \(status): \(output)") }
    return output
}

public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}
