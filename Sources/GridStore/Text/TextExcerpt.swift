/// Quotes text from the user's input in an error message.
package enum TextExcerpt {
    /// `text` on one line, cut to `limit` characters with its length in bytes after a cut.
    package static func abbreviated(_ text: String, limit: Int = 40) -> String {
        let singleLine = String(text.map { $0.isNewline ? " " : $0 })
        guard singleLine.count > limit else { return singleLine }
        return singleLine.prefix(limit) + "… (\(text.utf8.count) bytes)"
    }
}
