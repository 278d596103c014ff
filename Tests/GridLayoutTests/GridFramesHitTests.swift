import GridLayout
import SeededRandom
import Testing

/// What a collection-view layout asks of the frames, with no UIKit: the attributes in a
/// rectangle and the item at a point, checked against a scan of every frame.
@Suite("GridFrames hit testing")
struct GridFramesHitTests {
    @Test("the item at a point is the one whose frame holds it, or none over spacing and insets, on random grids")
    func itemAtPoint() throws {
        var random = SeededGenerator(seed: 15)
        for round in 0..<40 {
            let columns = [4, 6, 7][round % 3]
            let sizes: [TileSize] = [.small, .middle, .big]
            let sections = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...60, using: &random)).map { _ in sizes.randomElement(using: &random)! }
            }
            let direction: ScrollDirection = round.isMultiple(of: 2) ? .vertical : .horizontal
            let grid = TileGrid(configuration: try GridConfiguration(columns: columns, direction: direction), sections: sections)
            let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 390, spacing: 6,
                                                                            sectionInsets: EdgeInsets(all: 10)))
            let all = sections.indices.flatMap { section in sections[section].indices.map { GridIndexPath(item: $0, section: section) } }
            for _ in 0..<200 {
                let point = LayoutPoint(x: Double.random(in: -20...(frames.contentSize.width + 20), using: &random).rounded(),
                                        y: Double.random(in: -20...(frames.contentSize.height + 20), using: &random).rounded())
                let expected = all.first { path in
                    let frame = frames.frame(at: path)
                    return point.x >= frame.minX && point.x < frame.maxX && point.y >= frame.minY && point.y < frame.maxY
                }
                #expect(frames.item(at: point) == expected, "\(point) in round \(round)")
            }
            let rect = LayoutRect(x: 0, y: frames.contentSize.height / 3, width: 200, height: 300)
            #expect(frames.frames(in: rect).map(\.indexPath) == frames.items(in: rect))
            #expect(frames.frames(in: rect).allSatisfy { $0.frame == frames.frame(at: $0.indexPath) && $0.frame.intersects(rect) })
        }
        let empty = try GridFrames(grid: TileGrid(configuration: GridConfiguration(type: .less), sections: [[]]),
                                   metrics: FrameMetrics(crossAxisLength: 320))
        #expect(empty.item(at: LayoutPoint(x: 5, y: 5)) == nil)
        #expect(empty.item(at: LayoutPoint(x: .nan, y: 5)) == nil)
    }
}
