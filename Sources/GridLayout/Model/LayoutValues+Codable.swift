/// `Codable` for the layout's values, in shapes that stay stable (keys may be added, never
/// renamed or removed). Decoding checks what the initializers check, so a decoded value is
/// as valid as a constructed one: a bad span or column count is a `DecodingError`, never a trap.
///
/// | type | JSON |
/// |---|---|
/// | ``GridIndexPath`` | `{"section":0,"item":3}` |
/// | ``CellPosition`` | `{"x":1,"y":0}` |
/// | ``CellRect`` | `{"x":1,"y":0,"width":2,"height":2}` |
/// | ``TileSpan`` | `{"width":4,"height":2}` |
/// | ``TileSpans`` | `{"small":{…},"middle":{…},"big":{…}}` |
/// | ``GridConfiguration`` | `{"columns":6,"spans":{…},"direction":"vertical"}` |
/// | ``HexCoordinate`` | `{"q":1,"r":0}` |
/// | ``HoneycombConfiguration`` | `{"elementWidth":60,"itemSpacing":6,"orientation":"pointy-top","centerItem":"first"}`, with `"ringOrder":"original"` and `"scalingCurve":"smooth"` or `"original"` when not the default |
/// | ``LayoutPoint``, ``LayoutSize``, ``LayoutRect``, ``EdgeInsets`` | `{"x","y"}`, `{"width","height"}`, `{"origin","size"}`, `{"top","left","bottom","right"}` |
/// | ``ScrollDirection``, ``LayoutType``, ``TileSize`` | their raw strings |
extension ScrollDirection: Codable {}
extension LayoutType: Codable {}
extension HoneycombConfiguration.Orientation: Codable {}
extension HoneycombConfiguration.CenterItem: Codable {}
extension HoneycombConfiguration.RingOrder: Codable {}
extension EdgeScaling.Curve: Codable {}

extension TileSpan: Codable {
    private enum CodingKeys: String, CodingKey { case width, height }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width), height = try container.decode(Int.self, forKey: .height)
        let valid = 1...Self.maximumLength
        guard valid.contains(width), valid.contains(height) else {
            throw DecodingError.dataCorruptedError(forKey: .width, in: container,
                                                   debugDescription: "a tile span is 1 to \(Self.maximumLength) cells each way, not \(width)x\(height)")
        }
        self.init(width: width, height: height)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
    }
}

extension TileSpans: Codable {
    private enum CodingKeys: String, CodingKey { case small, middle, big }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let small = try container.decode(TileSpan.self, forKey: .small)
        let middle = try container.decode(TileSpan.self, forKey: .middle)
        let big = try container.decode(TileSpan.self, forKey: .big)
        try self.init(decoding: container) { () throws(LayoutConfigurationError) in
            try TileSpans(small: (small.width, small.height), middle: (middle.width, middle.height), big: (big.width, big.height))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(small, forKey: .small)
        try container.encode(middle, forKey: .middle)
        try container.encode(big, forKey: .big)
    }
}

extension GridConfiguration: Codable {
    private enum CodingKeys: String, CodingKey { case columns, spans, direction }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let columns = try container.decode(Int.self, forKey: .columns)
        let spans = try container.decodeIfPresent(TileSpans.self, forKey: .spans) ?? .standard
        let direction = try container.decodeIfPresent(ScrollDirection.self, forKey: .direction) ?? .vertical
        try self.init(decoding: container) { () throws(LayoutConfigurationError) in
            try GridConfiguration(columns: columns, spans: spans, direction: direction)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(columns, forKey: .columns)
        try container.encode(spans, forKey: .spans)
        try container.encode(direction, forKey: .direction)
    }
}

extension HoneycombConfiguration: Codable {
    private enum CodingKeys: String, CodingKey { case elementWidth, itemSpacing, orientation, centerItem, ringOrder, scalingCurve }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decodeIfPresent(Double.self, forKey: .elementWidth) ?? 60
        let spacing = try container.decodeIfPresent(Double.self, forKey: .itemSpacing) ?? 6
        let orientation = try container.decodeIfPresent(Orientation.self, forKey: .orientation) ?? .pointyTop
        let center = try container.decodeIfPresent(CenterItem.self, forKey: .centerItem) ?? .first
        let ringOrder = try container.decodeIfPresent(RingOrder.self, forKey: .ringOrder) ?? .standard
        let curve = try container.decodeIfPresent(EdgeScaling.Curve.self, forKey: .scalingCurve) ?? .linear
        try self.init(decoding: container) { () throws(LayoutConfigurationError) in
            try HoneycombConfiguration(elementWidth: width, itemSpacing: spacing, orientation: orientation, centerItem: center,
                                       ringOrder: ringOrder, scalingCurve: curve)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(elementWidth, forKey: .elementWidth)
        try container.encode(itemSpacing, forKey: .itemSpacing)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(centerItem, forKey: .centerItem)
        // Left out at their defaults, so documents from before they existed read the same.
        if ringOrder != .standard { try container.encode(ringOrder, forKey: .ringOrder) }
        if scalingCurve != .linear { try container.encode(scalingCurve, forKey: .scalingCurve) }
    }
}

/// A value built by a throwing initializer while decoding.
private protocol CheckedDecodable {}
extension TileSpans: CheckedDecodable {}
extension GridConfiguration: CheckedDecodable {}
extension HoneycombConfiguration: CheckedDecodable {}

extension CheckedDecodable {
    /// `make()`, with a ``LayoutConfigurationError`` turned into a `DecodingError` at `container`.
    fileprivate init<Key: CodingKey>(decoding container: KeyedDecodingContainer<Key>,
                                     _ make: () throws(LayoutConfigurationError) -> Self) throws {
        do {
            self = try make()
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}
