import GridLayout
import SeededRandom
import Testing
@testable import GridStore

/// The compact reading of a size register against the JSON reading of the same text: never a
/// different register, never one the JSON reading refuses, and every register gridstore writes
/// in the compact shape read by it.
@Suite struct CompactRegisterTests {
    private static let replicas = (0..<3).map { ReplicaID(high: 0x1000 + UInt64($0), low: 7) }

    /// What the JSON reading makes of `text`: `nil` when it refuses it.
    private static func readAsJSON(_ text: String) -> MergeRegister<TileSize?>? {
        var reader = BundleReader(reader: JSONReader(Array(text.utf8)), replicas: replicas)
        var item = ReplicatedGrid.Item()
        guard (try? reader.itemField("s", into: &item)) != nil, (try? reader.reader.expectEnd()) != nil else { return nil }
        return item.size
    }

    @Test("every register of one write that gridstore writes is read compactly, to what the JSON reading reads")
    func writtenRegisters() {
        let numbers = SyncReplicaNumbers(ordered: Self.replicas)
        for size in [nil, TileSize.small, .middle, .big] {
            for time: Int64 in [1, 9, 10, 117_741_120_217_939_968, 999_999_999_999_999_999] {
                for replica in Self.replicas {
                    var register = MergeRegister<TileSize?>()
                    register.write(size, at: SyncStamp(time: HybridTime(rawValue: time), replica: replica))
                    var writer = BundleWriter(indices: numbers)
                    writer.register(register, RegisterJSON.size)
                    let text = String(decoding: writer.text, as: UTF8.self)
                    let compact = CompactRegister.size(text, replicas: Self.replicas)
                    #expect(compact != nil, "\(text)")
                    #expect(compact == register && compact == Self.readAsJSON(text), "\(text)")
                }
            }
        }
    }

    @Test("texts near the compact shape: read compactly only when the JSON reading reads them, and to the same register",
          arguments: 0..<8)
    func nearTexts(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 4_300)
        let pieces = ["[[", "[", "]]", "]", ",", " ", "\"small\"", "\"middle\"", "\"big\"", "null", "\"huge\"", "0", "00", "1", "2", "3",
                      "-1", "12", "1e3", "1.5", "999999999999999999", "9999999999999999999", "117741120217939968", "{\"seen\":[[1,5]]}",
                      "[\"big\",4,1]", "true", "\""]
        var readCompactly = 0
        for _ in 0..<4_000 {
            // Mostly the compact shape with one piece changed; sometimes pieces at random.
            var parts = ["[[", "\"middle\"", ",", "117741120217939968", ",", "1", "]]"]
            if Bool.random(using: &random) {
                parts[Int.random(in: 0..<parts.count, using: &random)] = pieces.randomElement(using: &random)!
            } else {
                parts = (0..<Int.random(in: 1...9, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            }
            let text = parts.joined()
            guard let compact = CompactRegister.size(text, replicas: Self.replicas) else { continue }
            readCompactly += 1
            #expect(compact == Self.readAsJSON(text), "seed \(seed): '\(text)' read compactly to another register than the JSON reading's")
        }
        // The texts tried are near enough the shape for many to be read compactly.
        #expect(readCompactly > 100, "seed \(seed): \(readCompactly) texts read compactly")
    }
}
