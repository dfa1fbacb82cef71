import Foundation
import PersistKit

/// One sync round's work, in order: capture the local changes since the last round and push
/// them (one server transaction per batch), then pull the server's changes since the last
/// pulled sequence and apply them in one save. Runs with the store's sync lock held.
struct SyncRound {
    let container: PersistentContainer
    let server: SyncServer
    let space: String
    let configuration: SyncConfiguration
    let schema: SyncSchema
    let progress: (SyncProgress) -> Void

    /// The state keys of `_persistkit_sync_state`.
    enum StateKey {
        static let client = "client", server = "server", space = "space", pulled = "pulled", captured = "captured", clock = "clock"
    }

    func run(_ session: ServerSession) async throws -> SyncReport {
        let started = Date()
        var report = SyncReport()
        var state = try prepareState()
        guard let client = state[StateKey.client] else { throw SyncFailure.error("The store's sync state has no client ID") }
        _ = try await session.transaction { session in
            // For update: a newer model upgrades the space's record now, even with nothing to push.
            try await session.openSpace(space, model: container.model, policy: configuration.deletePolicy, forUpdate: true)
        }
        var attempts = 0
        while true {
            attempts += 1
            try await push(session, client: client, state: &state, report: &report)
            do {
                try await pull(session, state: &state, report: &report)
                break
            } catch is PullApplier.LocalChangesArrived where attempts < 5 {
                continue   // saved while pulling: push those first, then pull again
            } catch is PullApplier.LocalChangesArrived {
                break      // changes keep coming: the next round pulls
            }
        }
        report.duration = Date().timeIntervalSince(started)
        progress(SyncProgress(phase: .finished, sent: report.sent, received: report.received))
        return report
    }

    /// The local sync state, made on the first round (a client ID), and checked against the
    /// server and space this engine syncs.
    private func prepareState() throws -> [String: String] {
        var state = try container.readStore { sql in try LocalSyncTables.stateValues(sql) }
        let serverName = server.displayName + "#" + server.schema
        if state[StateKey.client] == nil {
            state = [StateKey.client: UUID().uuidString.lowercased(), StateKey.server: serverName, StateKey.space: space,
                     StateKey.pulled: "0"]
            let initial = state
            try container.performStoreTransaction(author: configuration.transactionAuthor) { sql in
                try LocalSyncTables.create(sql)
                try LocalSyncTables.setState(initial, sql)
            }
        } else if state[StateKey.space] != space {
            throw SyncFailure.error("This store syncs the space '\(state[StateKey.space] ?? "?")', not '\(space)': a store syncs one space",
                                    server: server.displayName, space: space)
        }
        return state
    }

    private func clock(_ state: [String: String]) -> HybridClock {
        HybridClock(last: state[StateKey.clock].flatMap(HybridTimestamp.init) ?? .zero, client: state[StateKey.client] ?? "")
    }

    /// Where the last push's capture ended: nil before the first push (every object is then
    /// new to the server), else the history token (itself nil when the store had no history).
    private func capturedToken(_ state: [String: String]) throws -> HistoryToken?? {
        guard let text = state[StateKey.captured] else { return nil }
        guard !text.isEmpty else { return .some(nil) }
        do {
            return .some(try JSONDecoder().decode(HistoryToken.self, from: Data(text.utf8)))
        } catch {
            throw SyncFailure.error("The store's sync state is damaged (its history position cannot be read)", space: space)
        }
    }

    // MARK: Push

    private func push(_ session: ServerSession, client: String, state: inout [String: String], report: inout SyncReport) async throws {
        progress(SyncProgress(phase: .capturing, sent: report.sent, received: report.received))
        let capture = ChangeCapture(container: container, schema: schema, author: configuration.transactionAuthor,
                                    storeIdentifier: container.storeIdentifier,
                                    // Whole milliseconds: the system clock's own offset is 0, so
                                    // a capture done again stamps exactly as before.
                                    clockOffset: (configuration.clock().timeIntervalSince(Date()) * 1000).rounded() / 1000)
        var clock = self.clock(state)
        clock = HybridClock(last: clock.last, client: client)
        let captured = try capturedToken(state)
        let batch = try capture.capture(after: captured, clock: clock)
        var pulled = Int64(state[StateKey.pulled] ?? "0") ?? 0
        if !batch.records.isEmpty {
            progress(SyncProgress(phase: .pushing, sent: report.sent, received: report.received))
            for chunk in batch.records.chunked(max(1, configuration.batchSize)) {
                let result = try await session.push(Array(chunk), space: space, client: client, model: container.model, schema: schema,
                                                    policy: configuration.deletePolicy)
                report.sent += chunk.count
                report.conflictsResolved += result.conflictsResolved
                // Nothing else reached the space since this store's last pull, and the server
                // wrote just what was pushed: it need not come back.
                if pulled == result.startSequence && result.wroteOnlyWhatWasPushed { pulled = result.sequence }
                progress(SyncProgress(phase: .pushing, sent: report.sent, received: report.received))
            }
        }
        guard !batch.records.isEmpty || captured.map({ $0 != batch.token }) ?? true else { return }
        // The server has it all: the bookkeeping, then the history hold moves on.
        var updated = state
        updated[StateKey.clock] = batch.clock.last.description
        updated[StateKey.pulled] = String(pulled)
        updated[StateKey.captured] = try batch.token.map { String(decoding: try JSONEncoder.sorted.encode($0), as: UTF8.self) } ?? ""
        let written = updated
        try container.performStoreTransaction(author: configuration.transactionAuthor) { sql in
            for identity in batch.newIdentities { try LocalSyncTables.setIdentity(identity.id, entity: identity.entity, key: identity.key, sql) }
            for id in batch.deletedIDs { try LocalSyncTables.removeIdentity(id, sql) }
            for entry in batch.clocks { try LocalSyncTables.setClock(entry.id, entry.field, entry.clock, sql) }
            try LocalSyncTables.setState(written, sql)
        }
        state = written
        try container.retainHistory(after: batch.token, for: configuration.transactionAuthor)
    }

    // MARK: Pull

    private func pull(_ session: ServerSession, state: inout [String: String], report: inout SyncReport) async throws {
        progress(SyncProgress(phase: .pulling, sent: report.sent, received: report.received))
        let start = Int64(state[StateKey.pulled] ?? "0") ?? 0
        var sequence = start
        var records: [String: SyncRecord] = [:]
        var order: [String] = []
        while true {
            let page = try await session.changes(after: sequence, space: space, limit: max(1, configuration.batchSize))
            for (record, recordSequence) in page {
                if records.updateValue(record, forKey: record.id) == nil { order.append(record.id) }
                sequence = max(sequence, recordSequence)
            }
            progress(SyncProgress(phase: .pulling, sent: report.sent, received: records.count))
            if page.count < max(1, configuration.batchSize) { break }
        }
        guard sequence > start else {
            report.serverSequence = start
            return
        }
        // Before the save (which checks again): local saves since the push are pushed first.
        let token = try capturedToken(state) ?? nil
        if try container.history(after: token).contains(where: { $0.author != configuration.transactionAuthor }) {
            throw PullApplier.LocalChangesArrived()
        }
        var pulledState = state
        pulledState[StateKey.pulled] = String(sequence)
        let applier = PullApplier(container: container, schema: schema, policy: configuration.deletePolicy,
                                  author: configuration.transactionAuthor, storeIdentifier: container.storeIdentifier)
        let outcome = try applier.apply(order.compactMap { records[$0] }, clock: clock(state), capturedThrough: token, state: pulledState)
        pulledState[StateKey.clock] = outcome.clock.last.description
        state = pulledState
        report.received += outcome.applied
        report.conflictsResolved += outcome.conflictsResolved
        report.serverSequence = sequence
    }
}
