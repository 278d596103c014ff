import GridLayout
import SeededRandom
import Testing

@Suite("HoneycombLayout")
struct HoneycombTests {
    let standard = try! HoneycombConfiguration(elementWidth: 60, itemSpacing: 6)

    @Test("the spiral maps positions to cells and back, ring by ring")
    func spiral() {
        #expect(HoneycombSpiral.coordinate(ofPosition: 0) == .origin)
        #expect((1...6).map { HoneycombSpiral.coordinate(ofPosition: $0) }.allSatisfy { $0.ring == 1 })
        #expect(HoneycombSpiral.coordinate(ofPosition: 1) == HexCoordinate(q: 1, r: 0))
        #expect(HoneycombSpiral.coordinate(ofPosition: 7) == HexCoordinate(q: 2, r: 0))
        for position in 0..<5_000 {
            let cell = HoneycombSpiral.coordinate(ofPosition: position)
            #expect(HoneycombSpiral.position(of: cell) == position)
            #expect(HoneycombSpiral.ring(ofPosition: position) == cell.ring)
        }
        // Consecutive cells of a ring are neighbours, and each ring closes on its start.
        for ring in 1...8 {
            let first = HoneycombSpiral.cellCount(throughRing: ring - 1)
            let cells = (first..<(first + 6 * ring)).map(HoneycombSpiral.coordinate(ofPosition:))
            for (a, b) in zip(cells, cells.dropFirst() + [cells[0]]) { #expect(a.distance(to: b) == 1) }
        }
    }

    @Test("counts 0 through 200 give exactly that many distinct, non-overlapping cells",
          arguments: [false, true], HoneycombConfiguration.RingOrder.allCases)
    func counts(lastInCenter: Bool, ringOrder: HoneycombConfiguration.RingOrder) throws {
        let configuration = try HoneycombConfiguration(elementWidth: 40, itemSpacing: 4, centerItem: lastInCenter ? .last : .first,
                                                       ringOrder: ringOrder)
        for count in 0...200 {
            let layout = HoneycombLayout(itemCount: count, configuration: configuration)
            let cells = (0..<count).map(layout.coordinate(ofItem:))
            #expect(Set(cells).count == count)
            #expect((0..<count).allSatisfy { layout.item(at: cells[$0]) == $0 })
            let frames = layout.frames()
            #expect(frames == (0..<count).map(layout.frame(ofItem:)))
            #expect(layout.cells() == cells)
            // Centers are at least a center distance apart: the hexagons never overlap.
            for i in 0..<count {
                for j in (i + 1)..<max(i + 1, min(count, i + 40)) {
                    let a = frames[i].center, b = frames[j].center
                    let gap = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
                    #expect(gap >= configuration.centerDistance - 1e-9)
                }
            }
            if lastInCenter && count > 0 { #expect(cells[count - 1] == .origin) }
            if !lastInCenter && count > 0 { #expect(cells[0] == .origin) }
        }
    }

    @Test("61 items form exactly 4 full rings around the center")
    func fullRings() {
        let layout = HoneycombLayout(itemCount: 61, configuration: standard)
        let rings = Dictionary(grouping: 0..<61, by: layout.ring(ofItem:)).mapValues(\.count)
        #expect(rings == [0: 1, 1: 6, 2: 12, 3: 18, 4: 24])
    }

    @Test("neighbours along a ring are exactly one center distance apart; rows share exact y values")
    func exactGeometry() {
        let layout = HoneycombLayout(itemCount: 169, configuration: standard)
        let distance = standard.centerDistance
        for ring in 1...7 {
            let first = HoneycombSpiral.cellCount(throughRing: ring - 1)
            for position in first..<(first + 6 * ring - 1) {
                let a = layout.frame(ofItem: position).center, b = layout.frame(ofItem: position + 1).center
                let gap = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
                #expect(abs(gap - distance) < 1e-9)
            }
        }
        // 169 items: 15 rows, and exactly 15 distinct y values (the original's stepping gave 49).
        let ys = Set(layout.frames().map(\.origin.y))
        #expect(ys.count == 15)
        #expect(ys.count == Set((0..<169).map { layout.coordinate(ofItem: $0).r }).count)
    }

    @Test("the original ring order: with the last item in the center, item 0 sits at the lower right and each ring starts 60° round")
    func originalRingOrder() throws {
        let configuration = try HoneycombConfiguration(centerItem: .last, ringOrder: .original)
        let layout = HoneycombLayout(itemCount: 19, configuration: configuration)
        #expect(layout.coordinate(ofItem: 18) == .origin)
        #expect(layout.coordinate(ofItem: 0) == HexCoordinate(q: 0, r: 1))
        #expect(layout.coordinate(ofItem: 1) == HexCoordinate(q: -1, r: 1))
        #expect(layout.coordinate(ofItem: 5) == HexCoordinate(q: 1, r: 0))
        // Ring 2 starts two steps down-left of the standard start, (2, 0) → (0, 2).
        #expect(layout.coordinate(ofItem: 6) == HexCoordinate(q: 0, r: 2))
        let frame0 = layout.frame(ofItem: 0), center = layout.frame(ofItem: 18)
        #expect(frame0.center.y > center.center.y && frame0.center.x > center.center.x)
        // The same cells as the standard order, ring by ring: only where each ring starts differs.
        let standard = HoneycombLayout(itemCount: 19, configuration: try HoneycombConfiguration(centerItem: .last))
        #expect(Set(layout.cells()) == Set(standard.cells()))
        #expect(standard.coordinate(ofItem: 0) == HexCoordinate(q: 1, r: 0))
    }

    @Test("the content size is the frames' bounding box, starting at the origin", arguments: [1, 2, 7, 8, 19, 50, 61, 62, 200, 1000])
    func contentSize(count: Int) throws {
        for orientation in HoneycombConfiguration.Orientation.allCases {
          for ringOrder in HoneycombConfiguration.RingOrder.allCases {
            let layout = HoneycombLayout(itemCount: count, configuration: try HoneycombConfiguration(
                elementWidth: 50, itemSpacing: 3, orientation: orientation, ringOrder: ringOrder))
            let frames = layout.frames()
            let minX = frames.map(\.minX).min()!, minY = frames.map(\.minY).min()!
            #expect(abs(minX) < 1e-9 && abs(minY) < 1e-9)
            #expect(abs(frames.map(\.maxX).max()! - layout.contentSize.width) < 1e-9)
            #expect(abs(frames.map(\.maxY).max()! - layout.contentSize.height) < 1e-9)
          }
        }
        #expect(HoneycombLayout(itemCount: 0, configuration: standard).contentSize == .zero)
    }

    @Test("items(in:) agrees with a full scan over many random rectangles", arguments: HoneycombConfiguration.Orientation.allCases)
    func itemsInRect(orientation: HoneycombConfiguration.Orientation) throws {
        var generator = SeededGenerator(seed: 61)
        for count in [0, 1, 7, 45, 331, 1_000] {
            let layout = HoneycombLayout(itemCount: count, configuration: try HoneycombConfiguration(
                elementWidth: 44, itemSpacing: 7, orientation: orientation, centerItem: count % 2 == 0 ? .first : .last))
            let frames = layout.frames()
            for _ in 0..<150 {
                let rect = LayoutRect(
                    x: Double.random(in: -200...(layout.contentSize.width + 100), using: &generator),
                    y: Double.random(in: -200...(layout.contentSize.height + 100), using: &generator),
                    width: Double.random(in: 0...500, using: &generator), height: Double.random(in: 0...500, using: &generator))
                #expect(layout.items(in: rect) == frames.indices.filter { frames[$0].intersects(rect) }, "\(count) \(rect)")
            }
        }
    }

    @Test("hit-testing agrees with the nearest cell and finds nothing in the gaps", arguments: HoneycombConfiguration.Orientation.allCases)
    func hitTesting(orientation: HoneycombConfiguration.Orientation) throws {
        var generator = SeededGenerator(seed: 17)
        let configuration = try HoneycombConfiguration(elementWidth: 40, itemSpacing: 10, orientation: orientation)
        let layout = HoneycombLayout(itemCount: 100, configuration: configuration)
        let centers = layout.frames().map(\.center)
        var gaps = 0
        for _ in 0..<3_000 {
            let point = LayoutPoint(x: Double.random(in: -50...(layout.contentSize.width + 50), using: &generator),
                                    y: Double.random(in: -50...(layout.contentSize.height + 50), using: &generator))
            let nearest = centers.indices.min { distance(centers[$0], point) < distance(centers[$1], point) }!
            let inside = layout.contains(point, in: layout.coordinate(ofItem: nearest))
            #expect(layout.item(at: point) == (inside ? nearest : nil))
            if !inside && distance(centers[nearest], point) < configuration.centerDistance / 2 { gaps += 1 }
        }
        #expect(gaps > 50)  // points in the gaps between cells were tried, and found nothing
        // Exactly on a center, and just inside and outside a flat side.
        let center = layout.frame(ofItem: 5).center
        #expect(layout.item(at: center) == 5)
        let across = orientation == .pointyTop ? LayoutPoint(x: 1, y: 0) : LayoutPoint(x: 0, y: 1)
        #expect(layout.item(at: LayoutPoint(x: center.x + across.x * 19.9, y: center.y + across.y * 19.9)) == 5)
        #expect(layout.item(at: LayoutPoint(x: center.x + across.x * 20.5, y: center.y + across.y * 20.5)) == nil)
    }

    private func distance(_ a: LayoutPoint, _ b: LayoutPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}

@Suite("EdgeScaling")
struct EdgeScalingTests {
    let viewport = LayoutRect(x: 0, y: 0, width: 400, height: 300)

    @Test("full size deep inside, the minimum at and beyond the edges, linear in between")
    func shape() throws {
        let scaling = try EdgeScaling(edgeDistance: 70, minimumScaleFactor: 0.4)
        #expect(scaling.scale(at: viewport.center, in: viewport) == 1)
        #expect(scaling.scale(at: LayoutPoint(x: 200, y: 70), in: viewport) == 1)
        #expect(scaling.scale(at: LayoutPoint(x: 200, y: 0), in: viewport) == 0.4)
        #expect(scaling.scale(at: LayoutPoint(x: -30, y: 150), in: viewport) == 0.4)
        #expect(abs(scaling.scale(at: LayoutPoint(x: 200, y: 35), in: viewport) - 0.7) < 1e-12)
    }

    @Test("the original curve: max(minimum, depth / distance), to the nearest edge")
    func originalCurve() throws {
        let scaling = try EdgeScaling(edgeDistance: 70, minimumScaleFactor: 0.4, curve: .original)
        #expect(abs(scaling.scale(at: LayoutPoint(x: 200, y: 35), in: viewport) - 0.5) < 1e-12)
        #expect(scaling.scale(at: LayoutPoint(x: 200, y: 14), in: viewport) == 0.4)
        #expect(scaling.scale(at: LayoutPoint(x: 200, y: 150), in: viewport) == 1)
        #expect(abs(scaling.scale(at: LayoutPoint(x: 5, y: 56), in: viewport) - 0.4) < 1e-12)
    }

    @Test("the corner the original got wrong: 69.9 pt and 70.1 pt from the left, 5 pt from the top, scale alike")
    func corner() throws {
        let scaling = try EdgeScaling(edgeDistance: 70, minimumScaleFactor: 0.4)
        let before = scaling.scale(at: LayoutPoint(x: 69.9, y: 5), in: viewport)
        let after = scaling.scale(at: LayoutPoint(x: 70.1, y: 5), in: viewport)
        #expect(abs(before - after) < 1e-9)
        #expect(abs(before - (0.4 + 0.6 * 5 / 70)) < 1e-12)
    }

    @Test("scale stays within [minimum, 1], is 1 at the center, and is continuous", arguments: EdgeScaling.Curve.allCases)
    func properties(curve: EdgeScaling.Curve) throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let edge = Double.random(in: 1...150, using: &generator)
            let minimum = Double.random(in: 0...1, using: &generator)
            let scaling = try EdgeScaling(edgeDistance: edge, minimumScaleFactor: minimum, curve: curve)
            let viewport = LayoutRect(x: Double.random(in: -500...500, using: &generator), y: Double.random(in: -500...500, using: &generator),
                                      width: 2 * edge + Double.random(in: 0...600, using: &generator),
                                      height: 2 * edge + Double.random(in: 0...600, using: &generator))
            #expect(scaling.scale(at: viewport.center, in: viewport) == 1)
            // The steepest slope: (1 - minimum) / edge, times 1.5 for the smooth curve's middle; the
            // original curve's is 1 / edge, from the minimum on.
            let slope = switch curve {
            case .linear: (1 - minimum) / edge
            case .smooth: (1 - minimum) / edge * 1.5
            case .original: 1 / edge
            }
            let lipschitz = slope + 1e-9
            for _ in 0..<50 {
                let point = LayoutPoint(x: Double.random(in: (viewport.minX - 100)...(viewport.maxX + 100), using: &generator),
                                        y: Double.random(in: (viewport.minY - 100)...(viewport.maxY + 100), using: &generator))
                let step = LayoutPoint(x: point.x + Double.random(in: -1...1, using: &generator),
                                       y: point.y + Double.random(in: -1...1, using: &generator))
                let a = scaling.scale(at: point, in: viewport), b = scaling.scale(at: step, in: viewport)
                #expect(a >= minimum - 1e-12 && a <= 1 + 1e-12)
                let moved = ((point.x - step.x) * (point.x - step.x) + (point.y - step.y) * (point.y - step.y)).squareRoot()
                #expect(abs(a - b) <= lipschitz * moved)
            }
        }
    }

    @Test("invalid parameters are refused")
    func invalid() {
        #expect(throws: LayoutConfigurationError.self) { try EdgeScaling(edgeDistance: 0) }
        #expect(throws: LayoutConfigurationError.self) { try EdgeScaling(minimumScaleFactor: 1.5) }
        #expect(throws: LayoutConfigurationError.self) { try HoneycombConfiguration(elementWidth: -1) }
        #expect(throws: LayoutConfigurationError.self) { try HoneycombConfiguration(itemSpacing: .nan) }
    }
}
