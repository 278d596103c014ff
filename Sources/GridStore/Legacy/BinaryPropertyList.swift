/// Reads binary property lists (`bplist00`), the format an iOS app's preferences file is in.
///
/// The file is a header, the objects, a table of their offsets, and a 32-byte trailer that
/// says where the table is, how wide its entries and the object references are, and which
/// object is the top one. Every offset, count and reference is checked against the file
/// before it is used, and a reference cycle or nesting deeper than
/// ``PropertyListReader/maximumDepth`` is refused. Objects may be shared (writers store an
/// equal string once): a shared string, number or data is read once and its value shared, and
/// the walk visits at most one value for each byte of the file, so arrays that each refer to
/// the next one many times, which would expand to far more values than the file holds, are
/// refused before they are built. No file can crash the reader or make it allocate more than
/// its size in values.
struct BinaryPropertyListReader {
    /// The first eight bytes of a binary property list.
    static let magic = Array("bplist00".utf8)

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int

    /// The top value of the binary property list `bytes`.
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        guard bytes.starts(with: magic), bytes.count >= magic.count + 32 else {
            throw failure("the file is too short for a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        let count = integer(bytes, at: trailer + 8, width: 8), top = integer(bytes, at: trailer + 16, width: 8)
        let tableStart = integer(bytes, at: trailer + 24, width: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count <= trailer,
              top >= 0, top < count, tableStart >= magic.count, tableStart <= trailer,
              count <= (trailer - tableStart) / offsetSize else {
            throw failure("its trailer describes an offset table that is not in the file")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let offset = integer(bytes, at: tableStart + index * offsetSize, width: offsetSize)
            guard offset >= magic.count, offset < tableStart else {
                throw failure("object \(index) is said to start outside the objects")
            }
            offsets.append(offset)
        }
        let reader = BinaryPropertyListReader(bytes: bytes, offsets: offsets, referenceSize: referenceSize)
        var walk = Walk(valuesLeft: bytes.count)
        return try reader.value(top, depth: 0, walk: &walk)
    }

    /// Where the reader is in the walk over the objects.
    private struct Walk {
        /// The objects that contain the one being read: a reference back to one is a cycle.
        var path: Set<Int> = []
        /// How many more values may be read.
        var valuesLeft: Int
        /// Strings, numbers and data already read, by object: a shared one is read once.
        var leaves: [Int: PropertyListValue] = [:]
    }

    private static func failure(_ message: String) -> PropertyListError {
        PropertyListError(message: "not a valid binary property list: \(message)", line: 1)
    }

    /// The big-endian unsigned number of `width` bytes at `offset` (which the caller has checked),
    /// or -1 when it does not fit an `Int`.
    private static func integer(_ bytes: [UInt8], at offset: Int, width: Int) -> Int {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value > UInt64(Int.max) ? -1 : Int(value)
    }

    /// Object `index`, one of `walk`'s values.
    private func value(_ index: Int, depth: Int, walk: inout Walk) throws(PropertyListError) -> PropertyListValue {
        guard depth < PropertyListReader.maximumDepth else { throw Self.failure("it is nested too deeply") }
        guard walk.valuesLeft > 0 else {
            throw Self.failure("its arrays and dictionaries refer to shared ones more often than a file of its size can hold")
        }
        walk.valuesLeft -= 1
        if let leaf = walk.leaves[index] { return leaf }
        guard walk.path.insert(index).inserted else { throw Self.failure("object \(index) contains itself") }
        defer { walk.path.remove(index) }
        let value = try read(index, depth: depth, walk: &walk)
        switch value {
        case .array, .dictionary: break
        default: walk.leaves[index] = value
        }
        return value
    }

    /// Object `index` as it is in the file.
    private func read(_ index: Int, depth: Int, walk: inout Walk) throws(PropertyListError) -> PropertyListValue {
        var position = offsets[index]
        let marker = bytes[position]
        position += 1
        let kind = marker >> 4, low = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default: throw Self.failure("object \(index) has the unknown marker \(marker)")
            }
        case 0x1:
            guard low <= 3 else { throw Self.failure("object \(index) is an integer wider than 8 bytes") }
            let width = 1 << low
            let raw = try UInt64(bitPattern: Int64(truncatingIfNeeded: unsigned(at: position, width: width)))
            // 8-byte integers are signed; narrower ones are not.
            let value = width == 8 ? String(Int64(bitPattern: raw)) : String(raw)
            return .scalar(kind: "integer", text: value)
        case 0x2:
            guard low == 2 || low == 3 else { throw Self.failure("object \(index) is a real of an unknown width") }
            let bits = try unsigned(at: position, width: 1 << low)
            let value = low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return .scalar(kind: "real", text: String(value))
        case 0x3:
            guard marker == 0x33 else { throw Self.failure("object \(index) has the unknown marker \(marker)") }
            return .scalar(kind: "date", text: String(Double(bitPattern: try unsigned(at: position, width: 8))))
        case 0x4:
            let length = try count(low, at: &position, of: index)
            _ = try slice(position, length)
            return .data("\(length) bytes")
        case 0x5:
            let length = try count(low, at: &position, of: index)
            return .string(String(decoding: try slice(position, length), as: UTF8.self))
        case 0x6:
            let units = try count(low, at: &position, of: index)
            guard units <= Int.max / 2 else { throw Self.failure("object \(index) is a string longer than the file") }
            let raw = try slice(position, units * 2)
            let utf16 = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            return .string(String(decoding: utf16, as: UTF16.self))
        case 0xA, 0xC, 0xD:
            let elements = try count(low, at: &position, of: index)
            return try collection(index, isDictionary: kind == 0xD, elements: elements, at: position, depth: depth, walk: &walk)
        default:
            throw Self.failure("object \(index) has the unknown marker \(marker)")
        }
    }

    /// An array or set (`elements` references at `position`), or a dictionary (`elements` key
    /// references, then as many value references).
    private func collection(_ index: Int, isDictionary: Bool, elements: Int, at position: Int, depth: Int,
                            walk: inout Walk) throws(PropertyListError) -> PropertyListValue {
        let first = try references(elements, at: position)
        guard isDictionary else {
            var values: [PropertyListValue] = []
            for reference in first { values.append(try value(reference, depth: depth + 1, walk: &walk)) }
            return .array(values)
        }
        let values = try references(elements, at: position + elements * referenceSize)
        var dictionary: [(key: String, value: PropertyListValue)] = []
        for (key, value) in zip(first, values) {
            guard case .string(let name) = try self.value(key, depth: depth + 1, walk: &walk) else {
                throw Self.failure("a key of object \(index) is not a string")
            }
            dictionary.append((name, try self.value(value, depth: depth + 1, walk: &walk)))
        }
        return .dictionary(dictionary)
    }

    /// The length an object's marker gives (`low`), or, when it is 15, the integer after it.
    private func count(_ low: Int, at position: inout Int, of index: Int) throws(PropertyListError) -> Int {
        guard low == 0x0F else { return low }
        guard position < bytes.count, bytes[position] >> 4 == 0x1, bytes[position] & 0x0F <= 3 else {
            throw Self.failure("object \(index) has a malformed length")
        }
        let width = 1 << Int(bytes[position] & 0x0F)
        let value = try unsigned(at: position + 1, width: width)
        position += 1 + width
        guard value <= UInt64(bytes.count) else { throw Self.failure("object \(index) is longer than the file") }
        return Int(value)
    }

    /// `count` object references starting at `position`, each checked to name an object.
    private func references(_ count: Int, at position: Int) throws(PropertyListError) -> [Int] {
        guard count <= bytes.count / referenceSize else { throw Self.failure("a collection is larger than the file") }
        let raw = try slice(position, count * referenceSize)
        var result: [Int] = []
        result.reserveCapacity(count)
        for start in stride(from: raw.startIndex, to: raw.endIndex, by: referenceSize) {
            let reference = Self.integer(bytes, at: start, width: referenceSize)
            guard reference >= 0, reference < offsets.count else { throw Self.failure("a reference names no object") }
            result.append(reference)
        }
        return result
    }

    private func unsigned(at position: Int, width: Int) throws(PropertyListError) -> UInt64 {
        let raw = try slice(position, width)
        return raw.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The `length` bytes at `position`, when they are all in the file.
    private func slice(_ position: Int, _ length: Int) throws(PropertyListError) -> ArraySlice<UInt8> {
        guard length >= 0, position >= 0, position <= bytes.count, length <= bytes.count - position else {
            throw Self.failure("an object runs past the end of the file")
        }
        return bytes[position..<(position + length)]
    }
}
