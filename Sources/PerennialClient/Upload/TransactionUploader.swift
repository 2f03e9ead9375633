import Foundation

/// Executes what the ``PendingTransactionJournal`` decides: persists it, posts entries to the server
/// with bounded concurrency, finishes acknowledged transactions with the store and retries failed
/// ones on the backoff's schedule.
///
/// Every entry is in flight at most once at a time (the journal marks it) and each upload's result
/// is applied to its own entry by key, so concurrent uploads never overwrite each other's result.
/// The concurrency bound is global: several drains running at once (launch, an update, a purchase)
/// share the same `maxConcurrentUploads` slots.
actor TransactionUploader {
    private var journal: PendingTransactionJournal
    private let persistence: any PersistentStore
    private let server: any ServerAPI
    private let store: any StoreBackend
    private let cache: SubscriberCache
    private let clock: PerennialClock
    private let maxConcurrentUploads: Int
    private let log: PerennialLog
    private var waiters: [String: [CheckedContinuation<UploadOutcome, Never>]] = [:]
    /// Drains waiting for another drain's upload to end (a slot frees, or an entry they must not
    /// start twice is settled).
    private var slotWaiters: [CheckedContinuation<Void, Never>] = []
    private var retryTimer: Task<Void, Never>?
    private var retriesEnabled = false
    /// Set when the journal refused a store update for lack of room: the store must be asked again
    /// once there is room.
    private(set) var refusedWhileFull = false

    /// Continues the journal saved in `persistence`. An unreadable journal starts empty: nothing is
    /// lost, because no transaction is finished with the store before the server acknowledged it, so
    /// the store still holds every undelivered one and hands it over at `start()`.
    init(
        persistence: any PersistentStore, server: any ServerAPI, store: any StoreBackend, cache: SubscriberCache,
        configuration: PerennialConfiguration
    ) {
        let snapshot = (try? persistence.load()).flatMap { $0 }.flatMap { try? WireJSON.decoder().decode(JournalSnapshot.self, from: $0) }
        self.journal = PendingTransactionJournal(
            snapshot: snapshot ?? JournalSnapshot(), capacity: configuration.journalCapacity, backoff: configuration.backoff)
        self.persistence = persistence
        self.server = server
        self.store = store
        self.cache = cache
        self.clock = configuration.clock
        self.maxConcurrentUploads = configuration.maxConcurrentUploads
        self.log = configuration.log
    }

    /// Transactions not yet acknowledged by the server.
    var undeliveredCount: Int { journal.undeliveredCount }

    /// Keys of every entry not yet acknowledged (only `appUserID`'s when given).
    func pendingKeys(of appUserID: String? = nil) -> Set<String> {
        Set(journal.entries.values.filter { $0.acknowledgedAt == nil && (appUserID == nil || $0.appUserID == appUserID) }.map(\.key))
    }

    /// Writes a transaction down durably before anything else happens to it. If the write fails
    /// the entry is not kept either, and the error says so: the transaction stays unfinished in the
    /// store and comes back at the next launch.
    func record(_ transaction: StoreTransaction, appUserID: String, origin: TransactionOrigin) throws(PerennialError)
        -> PendingTransactionJournal.RecordResult
    {
        let before = journal
        let result = journal.record(transaction, appUserID: appUserID, origin: origin, now: clock.now())
        switch result {
        case .recorded:
            do {
                try persist()
            } catch {
                journal = before
                log.error("journal", "transaction \(transaction.transactionID) not journaled: \(error.code.rawValue); the store keeps it")
                throw error
            }
            log.debug("journal", "transaction \(transaction.transactionID) (\(transaction.productID ?? "?")) journaled from \(origin)")
        case .refused:
            log.warning("journal", "journal full: transaction \(transaction.transactionID) left in the store for later")
            refusedWhileFull = true
        case .alreadyPending, .alreadyDelivered:
            break
        }
        return result
    }

    /// Records a purchase and waits for its first upload attempt, which starts at once whatever the
    /// backoff says (the user is waiting) but still within the concurrency bound.
    func recordAndDeliver(_ transaction: StoreTransaction, appUserID: String) async throws(PerennialError) -> UploadOutcome {
        let key = transaction.journalKey
        if try record(transaction, appUserID: appUserID, origin: .purchase) == .alreadyDelivered { return .alreadyDelivered }
        if journal.entries[key]?.acknowledgedAt != nil { return .alreadyDelivered }
        Task { await self.deliverDue(urgent: [key]) }
        return await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    /// Clears the "refused while full" mark, returning whether it was set and there is room now.
    func takeRoomAfterRefusal() -> Bool {
        guard refusedWhileFull, journal.entries.count < journal.capacity else { return false }
        refusedWhileFull = false
        return true
    }

    /// Uploads every due entry (plus `urgent` ones, backoff or not), at most `maxConcurrentUploads`
    /// at once across all drains, each at most once per drain. Returns each attempt's outcome by key.
    ///
    /// It returns only when no such entry is left in flight, including uploads another drain
    /// started: a launch whose store updates and unfinished list race each other (the updates
    /// drain takes every slot first) must still have delivered everything when `start()` returns.
    @discardableResult
    func deliverDue(urgent: Set<String> = []) async -> [String: UploadOutcome] {
        var outcomes: [String: UploadOutcome] = [:]
        var attempted: Set<String> = []
        await withTaskGroup(of: ([PendingTransaction], Result<SubscriberResponse, ServerError>).self) { group in
            var running = 0
            while true {
                let batches = journal.startUploads(
                    now: clock.now(), limit: maxConcurrentUploads, excluding: attempted, urgent: urgent)
                for batch in batches {
                    for entry in batch { attempted.insert(entry.key) }
                    running += 1
                    // Every entry of a batch shares the leader's proof and user: one request.
                    group.addTask { [server] in (batch, await Self.upload(batch[0], to: server)) }
                }
                if running == 0 {
                    guard journal.hasWork(now: clock.now(), excluding: attempted, urgent: urgent) else { break }
                    // Every slot, or the entry itself, is held by another drain: wait for it to end.
                    await withCheckedContinuation { slotWaiters.append($0) }
                    continue
                }
                guard let (batch, result) = await group.next() else { break }
                running -= 1
                for entry in batch { outcomes[entry.key] = await complete(entry, result) }
            }
        }
        scheduleRetry()
        return outcomes
    }

    /// Finishes with the store every transaction the server acknowledged before the app died.
    func finishAcknowledged() async {
        for entry in journal.awaitingFinish {
            await finish(entry.key, transactionID: entry.transaction.transactionID)
        }
    }

    /// From now on failed uploads are retried on the backoff's schedule without anyone asking.
    func enableRetries() {
        retriesEnabled = true
        scheduleRetry()
    }

    /// Stops the retry timer (the SDK instance is being shut down).
    func stop() {
        retriesEnabled = false
        retryTimer?.cancel()
        retryTimer = nil
    }

    private static func upload(_ entry: PendingTransaction, to server: any ServerAPI) async -> Result<SubscriberResponse, ServerError> {
        do {
            switch entry.transaction.evidence {
            case .signedTransaction(let jws): return .success(try await server.postTransaction(jws, appUserID: entry.appUserID))
            case .appReceipt(let receipt): return .success(try await server.postReceipt(receipt, appUserID: entry.appUserID))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Applies one upload's result to its own entry, then tells whoever waits for it.
    private func complete(_ entry: PendingTransaction, _ result: Result<SubscriberResponse, ServerError>) async -> UploadOutcome {
        let outcome: UploadOutcome
        switch result {
        case .success(let response):
            let action = journal.uploadSucceeded(key: entry.key, now: clock.now())
            // If this write fails and the app dies, the entry is uploaded once more after relaunch;
            // the server treats the repeat as a no-op. Finishing below is still safe: delivery happened.
            try? persist()
            log.info("upload", "transaction \(entry.transaction.transactionID) delivered")
            outcome = .delivered(await cache.accept(response))
            if case .finish(let transactionID) = action {
                await finish(entry.key, transactionID: transactionID)
            }
        case .failure(let error):
            journal.uploadFailed(key: entry.key, reason: error.description, now: clock.now())
            log.warning("upload", "transaction \(entry.transaction.transactionID) not delivered: \(PerennialError.server(error).code.rawValue); kept for retry")
            try? persist()
            outcome = .failed(error)
        }
        for waiter in waiters.removeValue(forKey: entry.key) ?? [] { waiter.resume(returning: outcome) }
        let drains = slotWaiters
        slotWaiters = []
        for drain in drains { drain.resume() }
        return outcome
    }

    /// Finishes with the store, then forgets the entry. A failed finish leaves the entry
    /// acknowledged; it is finished again at the next launch.
    private func finish(_ key: String, transactionID: String) async {
        do {
            try await store.finish(transactionID: transactionID)
        } catch {
            log.warning("finish", "transaction \(transactionID) not finished: \(PerennialError.store(error).code.rawValue); again at next launch")
            return
        }
        log.debug("finish", "transaction \(transactionID) finished")
        journal.finished(key: key)
        try? persist()
    }

    private func persist() throws(PerennialError) {
        do {
            try persistence.save(try WireJSON.encoder().encode(journal.snapshot))
        } catch {
            throw .journalUnavailable(String(describing: error))
        }
    }

    /// Arms one timer for the earliest entry waiting on its backoff.
    private func scheduleRetry() {
        retryTimer?.cancel()
        retryTimer = nil
        guard retriesEnabled, let next = journal.nextAttemptDate(now: clock.now()) else { return }
        let delay = max(0, next.timeIntervalSince(clock.now()))
        retryTimer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            await self?.retryTimerFired()
        }
    }

    private func retryTimerFired() async {
        // Checked inside the actor: `scheduleRetry` cancels under the same isolation, so a timer it
        // replaced never starts uploads it would then cancel half-way.
        guard !Task.isCancelled else { return }
        retryTimer = nil
        await deliverDue()
    }
}
