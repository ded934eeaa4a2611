import Foundation

/// Grocy's recipe descriptions are the HTML of its editor; Zaiko's steps are plain text with
/// paragraphs separated by a blank line.
enum GrocyText {
    static func plain(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "\r\n", with: "\n")
        // Block ends become paragraph breaks, line breaks stay line breaks, every other tag goes.
        text = text.replacingOccurrences(of: #"(?i)</(p|div|h[1-6]|li|ol|ul)\s*>"#, with: "\n\n", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(?i)<br\s*/?>"#, with: "\n", options: .regularExpression)
        text = text.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
        for (entity, character) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        let paragraphs = text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        return paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }
}
