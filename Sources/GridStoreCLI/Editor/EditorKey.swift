/// A key press or mouse event the editor acts on.
package enum EditorKey: Equatable {
    case up, down, left, right
    case enter, space, escape, tab
    /// A printable character (`h`, `q`, `?`, …).
    case character(Character)
    /// A mouse button pressed at a screen column and line (both from 1).
    case press(column: Int, line: Int)
    /// The mouse moved with the button held.
    case drag(column: Int, line: Int)
    /// The button released.
    case release(column: Int, line: Int)

    /// The keys in `bytes`, as a terminal sends them: plain characters, `ESC [ A`-style
    /// arrows (and `ESC O A`), and SGR mouse reports (`ESC [ < b ; x ; y M`). A lone `ESC`
    /// at the end of what arrived is the escape key; anything unknown is skipped.
    package static func decode(_ bytes: [UInt8]) -> [EditorKey] {
        var keys: [EditorKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    continue
                }
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "<") {
                    index += 1
                    if let (key, next) = mouse(bytes, from: index) {
                        if let key { keys.append(key) }
                        index = next
                    } else {
                        index = bytes.count
                    }
                    continue
                }
                // Parameters, then the final byte.
                while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
                guard index < bytes.count else { continue }
                let final = bytes[index]
                index += 1
                switch final {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x20: keys.append(.space)
            case 0x09: keys.append(.tab)
            case 0x03: keys.append(.character("q"))  // Ctrl-C where the terminal does not send SIGINT
            case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break
            }
        }
        return keys
    }

    /// `b ; x ; y` then `M` (press or drag) or `m` (release), from `index`.
    private static func mouse(_ bytes: [UInt8], from start: Int) -> (EditorKey?, Int)? {
        var numbers: [Int] = [0]
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(byte - 48), 1_000_000)
            case UInt8(ascii: ";"):
                numbers.append(0)
            case UInt8(ascii: "M"), UInt8(ascii: "m"):
                guard numbers.count == 3 else { return nil }
                let (button, column, line) = (numbers[0], numbers[1], numbers[2])
                // Only the first button; 32 marks motion with it held.
                guard button & 3 == 0, button & 64 == 0 else { return (nil, index) }
                if byte == UInt8(ascii: "m") { return (.release(column: column, line: line), index) }
                return (button & 32 != 0 ? .drag(column: column, line: line) : .press(column: column, line: line), index)
            default:
                return nil
            }
        }
        return nil
    }
}
