/// Finds what a user probably meant when a name they typed does not exist.
enum Suggestion {
    /// The candidate closest to `typed` by edit distance, if it is close enough to be a typo:
    /// at most one edit for names up to 4 characters, two up to 8, else three.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let limit = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(Array(typed.lowercased()), Array(candidate.lowercased()), limit: limit)
            if distance <= limit && distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The Damerau–Levenshtein distance (insertions, deletions, substitutions and swaps of two
    /// neighbours), or a value above `limit` as soon as it is known to exceed it.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let beforePrevious = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, row[j])
            }
            if rowMinimum > limit { return limit + 1 }
        }
        return row[b.count]
    }
}
