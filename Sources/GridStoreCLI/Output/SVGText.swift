/// Text for SVG and XML documents.
enum SVGText {
    /// `text` with XML's special characters escaped; control characters become spaces.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
