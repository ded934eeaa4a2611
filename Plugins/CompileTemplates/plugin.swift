import Foundation
import PackagePlugin

/// Compiles the templates of `Templates/` that opt in (`{{! compiled: … }}`) into Swift before
/// the target builds (see TemplateCompiler.Generator). Every template and locale file is an
/// input, so editing one re-runs it.
@main
struct CompileTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appendingPathComponent("Templates")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("CompiledTemplates.swift")
        var inputs: [URL] = []
        if let files = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil) {
            for case let file as URL in files where file.pathExtension == "mustache" || file.pathExtension == "json" { inputs.append(file) }
        }
        return [
            .buildCommand(
                displayName: "Compiling templates",
                executable: try context.tool(named: "zaiko-templates").url,
                arguments: [templates.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
