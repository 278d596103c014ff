import GridStore
/// Turns argument text into typed values, with errors that say what is valid.
enum ValueParser {
    /// A whole number within `range`.
    ///
    /// - Parameters:
    ///   - text: The argument as typed.
    ///   - name: What the value is, for the error message (`"index"`, `"--items"`).
    ///   - range: The valid values.
    static func integer(_ text: String, name: String, in range: ClosedRange<Int>,
                        command: CommandSpec) throws(CommandLineError) -> Int {
        let trimmed = text.hasPrefix("+") ? Substring(text.dropFirst()) : Substring(text)
        let isWholeNumber = !trimmed.isEmpty
            && trimmed.enumerated().allSatisfy { offset, character in
                character.isASCII && (character.isNumber || (offset == 0 && character == "-" && trimmed.count > 1))
            }
        guard isWholeNumber else {
            throw .usage("\(name) must be a whole number from \(describe(range)), not '\(abbreviated(text))'", command: command)
        }
        guard let value = Int(trimmed), range.contains(value) else {
            throw .usage("\(name) must be from \(describe(range)), not \(abbreviated(text))", command: command)
        }
        return value
    }

    /// A finite decimal number within `range`, such as `60` or `7.5`.
    static func number(_ text: String, name: String, in range: ClosedRange<Double>, aboveLowerBound: Bool = false,
                       command: CommandSpec) throws(CommandLineError) -> Double {
        let isDecimal = !text.isEmpty && text.utf8.count <= 32
            && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }
        guard isDecimal, let value = Double(text), value.isFinite else {
            throw .usage("\(name) must be a number, such as 60 or 7.5, not '\(abbreviated(text))'", command: command)
        }
        guard range.contains(value), !aboveLowerBound || value > range.lowerBound else {
            let from = aboveLowerBound ? "above \(format(range.lowerBound)) and up" : "from \(format(range.lowerBound))"
            throw .usage("\(name) must be \(from) to \(format(range.upperBound)), not \(abbreviated(text))", command: command)
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// One of a fixed set of words.
    static func choice<T>(_ text: String, name: String, choices: [(String, T)],
                          command: CommandSpec) throws(CommandLineError) -> T {
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let valid = choices.map(\.0).joined(separator: ", ")
        // `Big` or `bgi`: the word meant, in the case it is written in.
        let meant = choices.first { $0.0.lowercased() == text.lowercased() }?.0 ?? Suggestion.closest(to: text, among: choices.map(\.0))
        throw .usage("\(name) must be one of \(valid), not '\(abbreviated(text))'" + (meant.map { "; did you mean '\($0)'?" } ?? ""),
                     command: command)
    }

    /// `0 to 11`, `1 or more`.
    static func describe(_ range: ClosedRange<Int>) -> String {
        if range.upperBound == Int.max { return "\(range.lowerBound) up" }
        return "\(range.lowerBound) to \(range.upperBound)"
    }

    /// User text shortened for an error message, so a huge argument stays one readable line.
    static func abbreviated(_ text: String, limit: Int = 40) -> String {
        let singleLine = String(text.map { $0.isNewline ? " " : $0 })
        guard singleLine.count > limit else { return singleLine }
        return singleLine.prefix(limit) + "… (\(text.utf8.count) bytes)"
    }
}
