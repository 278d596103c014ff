import GridLayout

/// `Codable` for gridstore's values, in shapes that stay stable (keys may be added, never
/// renamed or removed). Decoding checks what the initializers and ``Grid`` check (limits,
/// columns, a honeycomb's single section without sizes, a grid's name), so a decoded value
/// can be stored as it is; an invalid one is a `DecodingError` whose underlying error is the
/// ``GridError``.
///
/// A ``GridSnapshot`` is its content, with its name and revision; the packed placements are
/// not stored, they are recomputed on decoding (as `import` does):
///
/// ```json
/// {"name":"default","revision":7,"columns":6,"direction":"vertical","defaultSize":"small",
///  "sections":[["big",null,"middle"]]}
/// ```
///
/// Item keys, when any item has one, are `"keys":[["mail",null,"news"]]`, one array per
/// section (an empty array for a section without keys).
///
/// ``GridContent`` is the same without `name` and `revision`; a honeycomb has
/// `"honeycomb":{"elementWidth":60,…}` and one section of `null`s. ``GridOptions`` is
/// `{"columns":6,"direction":"vertical","defaultSize":"small","sectionItemCounts":[12]}`,
/// with `"honeycomb"` for a honeycomb.
private enum ContentKeys: String, CodingKey {
    case name, revision, columns, direction, defaultSize, sections, keys, honeycomb, sectionItemCounts
}

/// Turns a ``GridError`` found while decoding into a `DecodingError` at `key`.
private func checked<T>(_ key: ContentKeys, in container: KeyedDecodingContainer<ContentKeys>,
                        _ body: () throws(GridError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: container.codingPath + [key], debugDescription: error.description, underlyingError: error))
    }
}

extension GridContent: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ContentKeys.self)
        let sections = try container.decode([[TileSize?]].self, forKey: .sections)
        if let honeycomb = try container.decodeIfPresent(HoneycombConfiguration.self, forKey: .honeycomb) {
            self.init(honeycomb: honeycomb, itemCount: sections.first?.count ?? 0)
            self.sections = sections
        } else {
            self.init(columns: try container.decode(Int.self, forKey: .columns),
                      direction: try container.decodeIfPresent(ScrollDirection.self, forKey: .direction) ?? .vertical,
                      defaultSize: try container.decodeIfPresent(TileSize.self, forKey: .defaultSize) ?? .small,
                      sections: sections)
        }
        keys = try container.decodeIfPresent([[String?]].self, forKey: .keys) ?? []
        _ = try checked(.sections, in: container) { () throws(GridError) in try validatedConfiguration() }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ContentKeys.self)
        try encodeFields(into: &container)
    }

    fileprivate func encodeFields(into container: inout KeyedEncodingContainer<ContentKeys>) throws {
        try container.encode(columns, forKey: .columns)
        try container.encode(direction, forKey: .direction)
        try container.encode(defaultSize, forKey: .defaultSize)
        try container.encode(sections, forKey: .sections)
        if keys.contains(where: { !$0.isEmpty }) { try container.encode(keys, forKey: .keys) }
        try container.encodeIfPresent(honeycomb, forKey: .honeycomb)
    }
}

extension GridSnapshot: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ContentKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let revision = try container.decode(Int.self, forKey: .revision)
        guard revision >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .revision, in: container, debugDescription: "a revision is 0 or more, not \(revision)")
        }
        let content = try GridContent(from: decoder)
        try checked(.name, in: container) { () throws(GridError) in try GridLimits.validate(name: name) }
        self = try checked(.sections, in: container) { () throws(GridError) in try GridSnapshot(name: name, revision: revision, content: content) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ContentKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(revision, forKey: .revision)
        try content.encodeFields(into: &container)
    }

    /// The grid's settings and sizes, without its name, revision and placements.
    public var content: GridContent {
        var content = GridContent(columns: columns, direction: direction, defaultSize: defaultSize, sections: explicitSizes)
        content.honeycomb = honeycomb
        if hasKeys { content.keys = normalizedItemKeys }
        return content
    }
}

extension GridSnapshot: Hashable {
    /// Two snapshots are equal when they hold the same grid at the same revision with the same
    /// content (their placements follow from it).
    public static func == (lhs: GridSnapshot, rhs: GridSnapshot) -> Bool {
        lhs.name == rhs.name && lhs.revision == rhs.revision && lhs.content == rhs.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(revision)
        hasher.combine(content)
    }
}

extension GridOptions: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ContentKeys.self)
        let counts = try container.decodeIfPresent([Int].self, forKey: .sectionItemCounts) ?? [12]
        if let honeycomb = try container.decodeIfPresent(HoneycombConfiguration.self, forKey: .honeycomb) {
            self.init(honeycomb: honeycomb, itemCount: counts.first ?? 0)
            sectionItemCounts = counts
        } else {
            self.init(columns: try container.decodeIfPresent(Int.self, forKey: .columns) ?? LayoutType.more.columns,
                      direction: try container.decodeIfPresent(ScrollDirection.self, forKey: .direction) ?? .vertical,
                      defaultSize: try container.decodeIfPresent(TileSize.self, forKey: .defaultSize) ?? .small,
                      sectionItemCounts: counts)
        }
        try checked(.sectionItemCounts, in: container) { () throws(GridError) in try validate() }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ContentKeys.self)
        try container.encode(columns, forKey: .columns)
        try container.encode(direction, forKey: .direction)
        try container.encode(defaultSize, forKey: .defaultSize)
        try container.encode(sectionItemCounts, forKey: .sectionItemCounts)
        try container.encodeIfPresent(honeycomb, forKey: .honeycomb)
    }
}
