/// Why two grids of one name that never synced with each other (no replica's changes known to
/// both) cannot be one grid: one is a honeycomb and the other tiles, or each has
/// ``keyCount`` keyed items or more and they share no key (docs/sync.md, *Unrelated grids*).
enum UnrelatedGrids {
    /// How many keyed items two grids that never synced must each have, with no key in common,
    /// to be taken for two different grids.
    static let keyCount = 4

    /// The reason `here` and `there` cannot be one grid, in words that name the other side as
    /// `elsewhere` ("there", "in the bundle"); `nil` when they can.
    static func reason(here: GridContent, there: GridContent, elsewhere: String) -> String? {
        if (here.honeycomb != nil) != (there.honeycomb != nil) {
            return here.honeycomb != nil ? "it is a honeycomb here and a grid of tiles \(elsewhere)"
                : "it is a grid of tiles here and a honeycomb \(elsewhere)"
        }
        // A few keys each may differ on two devices of one user (each added an app before the
        // first sync); four or more on each with none in common are two different grids.
        let keys = [here, there].map { Set($0.keys.flatMap { $0 }.compactMap { $0 }) }
        if keys.allSatisfy({ $0.count >= keyCount }), keys[0].isDisjoint(with: keys[1]) {
            return "each has \(keyCount) or more keyed items and no key in common"
        }
        return nil
    }

    /// Whether two sides whose knowledge is `here` and `there` never synced with each other,
    /// directly or through others.
    static func neverSynced(_ here: VersionVector, _ there: VersionVector) -> Bool {
        Set(here.entries.keys).isDisjoint(with: there.entries.keys)
    }
}
