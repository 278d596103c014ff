// Generated from Swift snippet 4 of docs/migrating.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite
#if canImport(SwiftUI)
import SwiftUI
#else
import Foundation  // with the stand-ins of AppleStandIns.swift
#endif

func docs_migrating_4() async throws {
    struct TileGridLayout: Layout {
        var snapshot: GridSnapshot                                 // from sizes.snapshot(), refreshed on changes()
        var spacing: CGFloat = 8

        func layout(in size: CGSize, count: Int) -> TileViewLayout<DensePacking> {
            snapshot.viewLayout(itemCounts: [count], viewport: LayoutViewport(width: size.width, height: size.height), spacing: spacing)
        }
        func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
            let ideal = TileViewLayout<DensePacking>.idealCrossAxisLength(for: snapshot.configuration, spacing: spacing)
            func across(_ proposed: CGFloat?) -> CGFloat { proposed.map { $0.isFinite ? $0 : ideal } ?? ideal }
            let room = snapshot.direction == .vertical ? CGSize(width: across(proposal.width), height: 0)
                                                       : CGSize(width: 0, height: across(proposal.height))
            let content = layout(in: room, count: subviews.count).contentSize
            return CGSize(width: content.width, height: content.height)
        }
        func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
            let layout = layout(in: bounds.size, count: subviews.count)
            for (item, subview) in subviews.enumerated() {
                let frame = layout.frame(at: GridIndexPath(item: item)) ?? .zero
                subview.place(at: CGPoint(x: bounds.minX + frame.minX, y: bounds.minY + frame.minY),
                              proposal: ProposedViewSize(width: frame.size.width, height: frame.size.height))
            }
        }
    }
}
