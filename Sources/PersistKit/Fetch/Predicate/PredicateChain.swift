import Synchronization

/// The terms of an AND (or OR) built with `&&` (or `||`), shared by every predicate along the
/// chain, so that `p = p && q` appends in place instead of copying `p`'s terms: building an
/// n-term chain takes time linear in n.
///
/// A predicate sees the chain through a ``View``: how many terms it has at the front and at the
/// back. Terms are only ever added beyond a view's ends, so what a view sees never changes. When
/// two predicates extend the same view (`p && a`, then `p && b`), the first appends in place and
/// the second copies the view's terms into a new chain, as values must behave.
final class PredicateChain: Sendable {
    /// What one predicate sees of a chain.
    struct View: Sendable {
        let chain: PredicateChain
        /// Terms taken from the front buffer (prepended, stored nearest-first).
        let front: Int
        /// Terms taken from the back buffer (appended, stored in order).
        let back: Int

        var count: Int { front + back }
        var isConjunction: Bool { chain.isConjunction }

        /// The terms in order (shares the back buffer when nothing is prepended).
        var terms: [PredicateNode] { chain.terms(front: front, back: back) }
    }

    private struct Buffers {
        var front: [PredicateNode] = []
        var back: [PredicateNode] = []
    }

    /// Terms written into chains since the process started: appended, prepended or copied.
    /// Tests use it to check that building a chain is linear.
    static let termsWritten = Atomic<Int>(0)

    let isConjunction: Bool
    private let buffers: Mutex<Buffers>

    private init(isConjunction: Bool, terms: [PredicateNode]) {
        self.isConjunction = isConjunction
        buffers = Mutex(Buffers(back: terms))
        PredicateChain.termsWritten.add(terms.count, ordering: .relaxed)
    }

    /// A new chain holding `terms`.
    static func make(isConjunction: Bool, terms: [PredicateNode]) -> View {
        View(chain: PredicateChain(isConjunction: isConjunction, terms: terms), front: 0, back: terms.count)
    }

    private func terms(front: Int, back: Int) -> [PredicateNode] {
        buffers.withLock { buffers in
            if front == 0 {
                return back == buffers.back.count ? buffers.back : Array(buffers.back.prefix(back))
            }
            return Array(buffers.front.prefix(front).reversed()) + buffers.back.prefix(back)
        }
    }

    /// The view with `terms` after its last term: in place when no other predicate has
    /// extended this view at the back, else in a copy.
    static func appending(_ terms: [PredicateNode], to view: View) -> View {
        let extended = view.chain.buffers.withLock { buffers -> Bool in
            guard buffers.back.count == view.back else { return false }
            buffers.back.append(contentsOf: terms)
            return true
        }
        if extended {
            termsWritten.add(terms.count, ordering: .relaxed)
            return View(chain: view.chain, front: view.front, back: view.back + terms.count)
        }
        return make(isConjunction: view.isConjunction, terms: view.terms + terms)
    }

    /// The view with `terms` before its first term: in place when no other predicate has
    /// extended this view at the front, else in a copy.
    static func prepending(_ terms: [PredicateNode], to view: View) -> View {
        let extended = view.chain.buffers.withLock { buffers -> Bool in
            guard buffers.front.count == view.front else { return false }
            buffers.front.append(contentsOf: terms.reversed())
            return true
        }
        if extended {
            termsWritten.add(terms.count, ordering: .relaxed)
            return View(chain: view.chain, front: view.front + terms.count, back: view.back)
        }
        return make(isConjunction: view.isConjunction, terms: terms + view.terms)
    }
}
