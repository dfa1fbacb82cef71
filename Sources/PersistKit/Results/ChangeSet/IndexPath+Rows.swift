import Foundation

// Index paths in PersistKit are Foundation's `IndexPath`: the section, then the item.
//
// UIKit (and AppKit, for collection views) add `IndexPath(item:section:)`, `.item` and `.section`
// to Foundation's type; other platforms (Linux, Windows, Android) have none of them, so PersistKit
// adds them there. On Apple's systems PersistKit imports the framework that declares them instead
// of declaring its own: two declarations of `IndexPath(item:section:)` would make every use of it
// ambiguous in an app that imports both PersistKit and UIKit or AppKit.
#if canImport(UIKit)
internal import UIKit
#elseif canImport(AppKit)
internal import AppKit
#else
extension IndexPath {
    /// Creates an index path that names a row: an item in a section.
    ///
    /// ```swift
    /// let path = IndexPath(item: 2, section: 0)    // the third row of the first section
    /// results.object(at: path)
    /// ```
    ///
    /// - Parameters:
    ///   - item: The row's index within its section.
    ///   - section: The section's index.
    public init(item: Int, section: Int) {
        // Appending to a one-index path stores both inline: no array is made (a change set of
        // 100,000 rows makes 100,000 paths).
        self.init(index: section)
        append(item)
    }

    /// The section of a row's index path: its first index.
    ///
    /// An index path with no indexes has no section: reading it gives `NSNotFound`, as
    /// `NSIndexPath.index(atPosition:)` does, so that a range check rejects it (UIKit traps
    /// instead). Setting it on such a path first pads the path with zeros to two indexes.
    ///
    /// ```swift
    /// var path = IndexPath(item: 4, section: 1)
    /// path.section            // 1
    /// path.section = 2        // [2, 4]
    /// IndexPath().section     // NSNotFound
    /// ```
    public var section: Int {
        get { count > 0 ? self[0] : NSNotFound }
        set {
            padToRow()
            self[0] = newValue
        }
    }

    /// The item of a row's index path: its row within its section, the second index.
    ///
    /// An index path with fewer than two indexes has no item: reading it gives `NSNotFound`, as
    /// `NSIndexPath.index(atPosition:)` does, so that a range check rejects it (UIKit traps
    /// instead). Setting it on such a path first pads the path with zeros to two indexes.
    ///
    /// ```swift
    /// var path = IndexPath(item: 4, section: 1)
    /// path.item               // 4
    /// path.item += 1          // [1, 5]
    /// IndexPath(index: 3).item   // NSNotFound
    /// ```
    public var item: Int {
        get { count > 1 ? self[1] : NSNotFound }
        set {
            padToRow()
            self[1] = newValue
        }
    }

    /// Appends zeros until the path has a section and an item.
    private mutating func padToRow() {
        while count < 2 { append(0) }
    }
}
#endif
