import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// The grid document as public library API: export, import and validate without the CLI.
@Suite("GridDocument")
struct GridDocumentTests {
    @Test("a snapshot's document decodes to its content; importing it gives the same grid")
    func roundTrip() throws {
        let source = try InMemoryGridSizeRepository(name: "phone", options: GridOptions(type: .less, sectionItemCounts: [5, 2]))
        try source.set([GridIndexPath(item: 1): .big, GridIndexPath(item: 1, section: 1): .middle])
        let text = GridDocument.encode(try source.snapshot())
        #expect(text.hasPrefix(#"{"grid":"phone","type":"less","columns":4,"direction":"vertical","revision":1,"defaultSize":"small","#))
        let decoded = try GridDocument.decode(text)
        #expect(decoded.name == "phone")
        try decoded.validate()
        let target = try InMemoryGridSizeRepository(name: "copy")
        let imported = try target.update { try $0.replaceContent(decoded.content) }
        #expect(imported.content == (try source.snapshot()).content)
    }

    @Test("with frame metrics each item gets its pixel frame")
    func frames() throws {
        let snapshot = try InMemoryGridSizeRepository(options: GridOptions(type: .less, sectionItemCounts: [2])).snapshot()
        let text = try GridDocument.encode(snapshot, frames: FrameMetrics(crossAxisLength: 320, spacing: 8))
        #expect(text.contains(#""frame":{"x":82,"y":0,"width":74,"height":74}"#))
        #expect(throws: LayoutConfigurationError.self) {
            try GridDocument.encode(snapshot, frames: FrameMetrics(crossAxisLength: 10, spacing: 8))
        }
    }

    @Test("malformed and invalid documents are refused with what is wrong and where")
    func refusals() throws {
        #expect(throws: GridDocumentError.self) { try GridDocument.decode(#"{"grid":"x","#) }
        do {
            _ = try GridDocument.decode(#"{"grid":"x","type":"less","sections":[{"section":0,"items":[{"index":0,"size":"huge"}]}]}"#)
            Issue.record("a size that does not exist was accepted")
        } catch {
            #expect(error.description.hasPrefix("line 1, column "))
            #expect(error.description.hasSuffix(#"is "huge"; sizes are small, middle and big"#))
        }
        let tooWide = try GridDocument.decode(#"{"grid":"x","columns":2,"sections":[{"section":0,"items":[{"index":0,"size":"big"}]}]}"#)
        #expect(throws: GridError.self) { try tooWide.validate() }
        let badName = try GridDocument.decode(#"{"grid":"a\nb","columns":4,"sections":[]}"#)
        #expect(throws: GridError.self) { try badName.validate() }
    }
}
