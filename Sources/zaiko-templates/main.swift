import Foundation
import TemplateCompiler

// zaiko-templates TEMPLATES_DIR OUTPUT.swift: compiles the templates that opt in (see
// Generator) into one Swift file. Run by the CompileTemplates build plugin.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: zaiko-templates TEMPLATES_DIR OUTPUT.swift\n".utf8))
    exit(2)
}
do {
    let code = try Generator(directory: URL(fileURLWithPath: arguments[1])).generate()
    // Written only when it changes, so an unchanged template does not rebuild the Web target.
    let output = URL(fileURLWithPath: arguments[2])
    if (try? String(contentsOf: output, encoding: .utf8)) != code { try code.write(to: output, atomically: true, encoding: .utf8) }
} catch let error as TemplateError {
    // "file:line: error: message", the form SwiftPM and editors show against the template.
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("zaiko-templates: \(error)\n".utf8))
    exit(1)
}
