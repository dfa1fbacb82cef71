import Foundation
import PersistKit
import PostgresNIO

extension ServerSession {
    /// What a push did.
    struct PushResult: Sendable {
        /// Rows written (objects and links whose state changed).
        var written = 0
        /// Pushed keys that lost to newer ones, updates a deletion overrode, uniqueness merges.
        var conflictsResolved = 0
        /// The space's sequence before and after the push.
        var startSequence: Int64 = 0
        var sequence: Int64 = 0
        /// Whether the rows written are the pushed records and nothing else (no key lost, no
        /// merge, no link moved): the pushing store then need not pull them back.
        var wroteOnlyWhatWasPushed = true
    }

    /// Pushes `records` to `space` in one transaction: merges them into the stored rows (see
    /// ``ServerMerge``), merges objects whose uniqueness-constrained values collide, writes
    /// the changed rows with new sequence numbers and their change log entries, and notifies
    /// the space's listeners. A push of records already pushed changes nothing.
    func push(_ records: [SyncRecord], space: String, client: String, model: ManagedObjectModel, schema syncSchema: SyncSchema,
              policy: SyncConfiguration.DeletePolicy) async throws -> PushResult {
        try await transaction { session in
            let opened = try await session.openSpace(space, model: model, policy: policy, forUpdate: true)
            var merge = ServerMerge(policy: policy,
                                    uniqueness: syncSchema.entities.mapValues(\.uniqueness).filter { !$0.value.isEmpty },
                                    ignoringCase: syncSchema.entities.mapValues(\.uniqueIgnoringCase).filter { !$0.value.isEmpty },
                                    linkEntities: Set(syncSchema.links.keys))
            // The pushed rows, and the ends of pushed links (they may have been merged).
            var wanted = Set(records.map(\.id))
            for record in records where syncSchema.links[record.entity] != nil {
                for key in [SyncRecord.ownerKey, SyncRecord.targetKey] {
                    if let end = record.fields[key]?.text { wanted.insert(end) }
                }
            }
            merge.load(try await session.records(Array(wanted), space: space))
            // Merged-into targets, followed until every chain ends here.
            var pending = merge.rows.values.compactMap(\.mergedInto).filter { merge.rows[$0] == nil }
            while !pending.isEmpty {
                merge.load(try await session.records(pending, space: space))
                pending = merge.rows.values.compactMap(\.mergedInto).filter { merge.rows[$0] == nil }
            }
            // Links whose resolved ID differs from the pushed one land on rows not loaded yet.
            var redirected: [String] = []
            for record in records where syncSchema.links[record.entity] != nil {
                if let owner = record.fields[SyncRecord.ownerKey]?.text, let target = record.fields[SyncRecord.targetKey]?.text {
                    let id = SyncRecord.linkID(owner: merge.resolve(owner), relationship: SyncRecord.relationship(ofLinkEntity: record.entity), target: merge.resolve(target))
                    if id != record.id && merge.rows[id] == nil { redirected.append(id) }
                }
            }
            merge.load(try await session.records(redirected, space: space))
            for record in records.sorted(by: { $0.id < $1.id }) { merge.apply(record) }
            try await session.mergeCollisions(&merge, space: space)

            var result = PushResult(conflictsResolved: merge.conflictsResolved, startSequence: opened.sequence, sequence: opened.sequence)
            var written: [(record: SyncRecord, logged: SyncRecord, sequence: Int64)] = []
            for id in merge.changedOrder {
                guard let row = merge.rows[id], let logged = merge.logged[id], row != merge.loaded[id] else { continue }
                result.sequence += 1
                written.append((row, logged, result.sequence))
            }
            result.written = written.count
            let pushed = Set(records.map(\.id))
            result.wroteOnlyWhatWasPushed = merge.conflictsResolved == 0 && written.allSatisfy { pushed.contains($0.record.id) }
            guard !written.isEmpty else { return result }
            try await session.write(written, space: space, client: client)
            let uniques = merge.uniqueChanges()
            try await session.writeUniques(removed: uniques.removed, held: uniques.held, space: space)
            try await session.advance(space: space, to: result.sequence)
            return result
        }
    }

    /// Finds the live rows whose constrained values another live row already holds, and merges
    /// each pair (the smaller ID wins), until none is left.
    private func mergeCollisions(_ merge: inout ServerMerge, space: String) async throws {
        var rounds = 0
        while rounds < 100 {
            rounds += 1
            let held = merge.uniqueChanges().held
            guard !held.isEmpty else { return }
            let stored = try await uniqueHolders(held.map(\.0), space: space)
            // Values two changed rows hold, and values held by rows stored before.
            var holders: [ServerMerge.UniqueValue: String] = [:]
            var pairs: [(String, String)] = []
            for (value, id) in held.sorted(by: { $0.1 < $1.1 }) {
                if let other = holders[value], other != id {
                    pairs.append((other, id))
                } else {
                    holders[value] = id
                }
            }
            for (value, id) in held {
                if let other = stored[value], other != id { pairs.append((other, id)) }
            }
            let missing = pairs.flatMap { [$0.0, $0.1] }.filter { merge.rows[$0] == nil }
            merge.load(try await records(missing, space: space))
            var merged = false
            for (first, second) in pairs {
                let (a, b) = (merge.resolve(first), merge.resolve(second))
                guard a != b, let rowA = merge.rows[a], let rowB = merge.rows[b], merge.isAlive(rowA), merge.isAlive(rowB),
                      !Set(merge.uniqueValues(of: rowA)).isDisjoint(with: merge.uniqueValues(of: rowB)) else { continue }
                let (winner, loser) = a < b ? (a, b) : (b, a)
                merge.load(try await self.links(of: loser, space: space))
                // Stored links and links this push made.
                let links = merge.rows.values.filter { row in
                    merge.linkEntities.contains(row.entity)
                        && (row.fields[SyncRecord.ownerKey]?.text == loser || row.fields[SyncRecord.targetKey]?.text == loser)
                }.sorted { $0.id < $1.id }
                // The links the moved ones land on.
                let targets = links.compactMap { link -> String? in
                    guard let owner = link.fields[SyncRecord.ownerKey]?.text, let target = link.fields[SyncRecord.targetKey]?.text
                    else { return nil }
                    return SyncRecord.linkID(owner: owner == loser ? winner : owner, relationship: SyncRecord.relationship(ofLinkEntity: link.entity), target: target == loser ? winner : target)
                }
                merge.load(try await records(targets.filter { merge.rows[$0] == nil }, space: space))
                if merge.mergeObject(loser, into: winner) {
                    merge.moveLinks(links, from: loser, to: winner)
                    merged = true
                }
            }
            if !merged { return }
        }
    }
}
