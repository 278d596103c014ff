import SeededRandom
import Testing
@testable import GridStore

/// The `versions` column read and advanced as text (what a synced toggle does) against the
/// vector it encodes.
@Suite struct SyncVersionsTextTests {
    @Test("a replica's time read from the text, and the text advanced, are what the vector gives and encodes (seeded)",
          arguments: 0..<300)
    func againstTheVector(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let replicas = (0..<Int.random(in: 1...6, using: &random)).map { _ in ReplicaID.random(using: &random) }
        var entries: [ReplicaID: HybridTime] = [:]
        for replica in replicas.dropFirst() where Bool.random(using: &random) {
            entries[replica] = HybridTime(rawValue: Int64.random(in: 1...1 << 60, using: &random))
        }
        if Bool.random(using: &random) { entries[replicas[0]] = HybridTime(rawValue: Int64.random(in: 1...1 << 60, using: &random)) }
        let vector = VersionVector(entries)
        let text = SyncVersionsText.encode(vector)
        let own = replicas[0]
        #expect(SyncVersionsText.time(of: own, in: text) == vector[own], "seed \(seed): \(text)")
        let time = HybridTime(rawValue: Int64.random(in: 1...1 << 61, using: &random))
        var advanced = vector
        advanced.advance(own, to: time)
        #expect(SyncVersionsText.advancing(own, to: time, in: text) == SyncVersionsText.encode(advanced), "seed \(seed): \(text)")

        // Text in another order, or altered, is read by the text path only where the vector
        // reads it the same; out of order, it is left to decode(_:).
        var parts = text.split(separator: ",").map(String.init)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: parts.shuffle(using: &random)
        case 1: if let first = parts.first { parts.append(first) }
        case 2: if !parts.isEmpty { parts[Int.random(in: 0..<parts.count, using: &random)] += "0x" }
        default: if !parts.isEmpty { parts[Int.random(in: 0..<parts.count, using: &random)].removeFirst() }
        }
        let altered = parts.joined(separator: ",")
        if let read = SyncVersionsText.time(of: own, in: altered) {
            #expect(SyncVersionsText.decode(altered)?[own] == read, "seed \(seed): \(altered)")
            #expect(SyncVersionsText.decode(altered).map(SyncVersionsText.encode) == altered, "seed \(seed): \(altered)")
        }
    }

    @Test("an empty text is no replica's time, and advancing it gives the one entry")
    func empty() {
        let replica = ReplicaID.random()
        #expect(SyncVersionsText.time(of: replica, in: "") == .zero)
        #expect(SyncVersionsText.advancing(replica, to: HybridTime(rawValue: 7), in: "") == "\(replica):7")
    }
}
