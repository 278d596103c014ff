// The few UIKit and SwiftUI symbols the documentation's shells use, declared as Apple declares
// them, so the shells compile where UIKit and SwiftUI do not exist. They do nothing: what the
// compile checks is the shells' use of gridstore.

import Foundation

#if !canImport(UIKit)
@MainActor open class UICollectionViewLayout {
    public init() {}
    public required init?(coder: NSCoder) {}
    open var collectionView: UICollectionView? { nil }
    open func invalidateLayout() {}
    open func prepare() {}
    open var collectionViewContentSize: CGSize { .zero }
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }
    open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }
    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }
}

@MainActor open class UICollectionViewLayoutAttributes {
    open var indexPath: IndexPath
    open var frame: CGRect = .zero
    public init(forCellWith indexPath: IndexPath) { self.indexPath = indexPath }
}

@MainActor open class UICollectionView {
    open var bounds: CGRect = .zero
    open var adjustedContentInset: UIEdgeInsets = UIEdgeInsets()
    open var numberOfSections: Int { 0 }
    open func numberOfItems(inSection section: Int) -> Int { 0 }
}

/// UIKit's additions to `IndexPath`.
extension IndexPath {
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public var item: Int { self[1] }
    public var section: Int { self[0] }
}

public struct UIEdgeInsets: Sendable {
    public var top: CGFloat = 0
    public var left: CGFloat = 0
    public var bottom: CGFloat = 0
    public var right: CGFloat = 0
}
#endif

#if !canImport(SwiftUI)
public protocol Layout {
    associatedtype Cache = Void
    typealias Subviews = LayoutSubviews
    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Cache) -> CGSize
    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Cache)
}

public struct ProposedViewSize: Equatable, Sendable {
    public var width: CGFloat?
    public var height: CGFloat?
    public init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }
}

public struct UnitPoint: Sendable {
    public static let topLeading = UnitPoint()
}

public struct LayoutSubview {
    public func place(at position: CGPoint, anchor: UnitPoint = .topLeading, proposal: ProposedViewSize) {}
}

public struct LayoutSubviews: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }
    public subscript(index: Int) -> LayoutSubview { LayoutSubview() }
}
#endif
