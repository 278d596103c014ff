// Generated from Swift snippet 3 of docs/migrating.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite
#if canImport(UIKit)
import UIKit
#else
import Foundation  // with the stand-ins of AppleStandIns.swift
#endif

func docs_migrating_3() async throws {
    final class TileLayout: UICollectionViewLayout {
        let sizes: DatabaseGridSizeRepository
        /// Told when a read fails, and when observing ends on an error: the grid was dropped, the database failed or was closed.
        var onError: (any Error) -> Void = { print("gridstore: \($0)") }
        private var snapshot: GridSnapshot?
        private var layout: TileViewLayout<DensePacking>?
        private var observation: Task<Void, Never>?

        init(sizes: DatabaseGridSizeRepository) {
            self.sizes = sizes
            super.init()
            observation = Task { @MainActor [weak self] in
                do {
                    for try await _ in sizes.changes() { self?.invalidateLayout() }   // any process's change
                } catch {
                    self?.onError(error)
                }
            }
        }
        deinit { observation?.cancel() }
        required init?(coder: NSCoder) { fatalError("TileLayout is made in code") }

        private func viewport(_ view: UICollectionView, size: CGSize) -> LayoutViewport {
            let insets = view.adjustedContentInset
            return LayoutViewport(width: size.width, height: size.height,
                                  insets: EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right))
        }
        override func prepare() {
            super.prepare()
            guard let view = collectionView else { return }
            do { snapshot = try sizes.snapshot() } catch { onError(error) }   // read now: a batch update's write is in it
            guard let snapshot else { return layout = nil }
            let counts = (0..<view.numberOfSections).map { view.numberOfItems(inSection: $0) }
            layout = snapshot.viewLayout(itemCounts: counts, viewport: viewport(view, size: view.bounds.size), spacing: 8)
        }
        override var collectionViewContentSize: CGSize {
            CGSize(width: layout?.contentSize.width ?? 0, height: layout?.contentSize.height ?? 0)
        }
        override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
            guard let view = collectionView, let layout else { return true }
            return layout.isInvalidated(by: viewport(view, size: newBounds.size))
        }
        override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
            layout?.frames(in: LayoutRect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)).map(attributes)
        }
        override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
            let path = GridIndexPath(item: indexPath.item, section: indexPath.section)
            return layout?.frame(at: path).map { attributes(path, $0) }
        }
        private func attributes(_ path: GridIndexPath, _ frame: LayoutRect) -> UICollectionViewLayoutAttributes {
            let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: path.item, section: path.section))
            attributes.frame = CGRect(x: frame.minX, y: frame.minY, width: frame.size.width, height: frame.size.height)
            return attributes
        }
    }
}
