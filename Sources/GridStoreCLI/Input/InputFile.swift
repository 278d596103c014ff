import GridStore

/// Reads an input file named on the command line, or standard input for `-`.
enum InputFile {
    /// The largest input read: larger files are refused rather than exhausting memory. As large
    /// as the largest document `export` writes, so every export imports.
    static let maximumBytes = GridDocument.maximumDocumentBytes

    /// How errors name the input: its path, or `standard input`.
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : CommandLineOutput.printable(path)
    }

    /// The whole input.
    ///
    /// - Parameter limit: The most bytes read; a larger input is refused.
    /// - Throws: A failure (exit 1) when it cannot be read or is a directory; bad input
    ///   (exit 65) when it is larger than `limit`.
    static func read(_ path: String, limit: Int = maximumBytes) throws(CommandLineError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try Platform.readAll(path: path == "-" ? nil : path, limit: limit)
        } catch {
            throw .failure("cannot read \(displayName(path)): \(error.message)")
        }
        guard let bytes else { throw .badInput("\(displayName(path)) is larger than \(limit / 1024 / 1024) MiB") }
        return bytes
    }
}
