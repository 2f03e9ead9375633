public import Foundation
public import PerennialCore

/// The decisions of an apply, written once for every back end: given the evidence and a snapshot
/// of the rows it can change, which records, bindings, views, events and audit entries to write.
///
/// Pure and synchronous (no I/O, `now` passed in) because SQLite's write closures are synchronous
/// and PostgreSQL's are async: each back end runs it inside its own transaction, between loading
/// the ``StorageSnapshot`` and writing the ``WritePlan``. State always comes from the records via
/// ``PerennialCore/SubscriberEngine``, never from the evidence's kind, so duplicates and reordering
/// give the same result.
public struct EvidenceApplier: Sendable {
    public let engine: SubscriberEngine
    public let transferPolicy: TransferPolicy
    /// Schedules each touched subscription's next comparison with Apple.
    public let reconciliation: ReconciliationPolicy
    /// Whether plans carry the analytics counters' change; off only where that cost is measured
    /// (`perennial-bench analytics` sets an apply without it beside one with it).
    public let maintainsAnalytics: Bool

    public init(
        engine: SubscriberEngine, transferPolicy: TransferPolicy, reconciliation: ReconciliationPolicy = ReconciliationPolicy(),
        maintainsAnalytics: Bool = true
    ) {
        self.engine = engine
        self.transferPolicy = transferPolicy
        self.reconciliation = reconciliation
        self.maintainsAnalytics = maintainsAnalytics
    }

    /// The same applier with the transfer policy `transfer`: what an operator's move of a purchase
    /// is decided with, whatever the app's policy for users presenting it themselves.
    public var transferring: EvidenceApplier {
        EvidenceApplier(engine: engine, transferPolicy: .transfer, reconciliation: reconciliation, maintainsAnalytics: maintainsAnalytics)
    }

    /// The plan for one piece of evidence.
    ///
    /// Purchases nobody owns are bound to the presenter, or else to the user of the app account
    /// token they carry; a purchase owned by someone other than the presenter goes through the
    /// ``TransferPolicy``. Evidence about a purchase that stays unowned is stored without events:
    /// they are derived when someone binds it, because an unowned subscription has no subscriber.
    ///
    /// - Throws: ``StorageError/emptyEvidence(idempotencyKey:)`` when the evidence has no record.
    public func plan(for evidence: IncomingEvidence, snapshot: StorageSnapshot, now: Date) throws(StorageError) -> WritePlan {
        let touched = evidence.originalTransactionIDs
        guard !touched.isEmpty else { throw .emptyEvidence(idempotencyKey: evidence.idempotencyKey) }
        let merged = snapshot.records.merging(evidence.records)
        var plan = WritePlan(evidence: evidence)
        collectChangedRecords(evidence.records, merged: merged, stored: snapshot.records, into: &plan)
        let owners = decideOwners(touched, evidence: evidence, merged: merged, snapshot: snapshot, now: now, into: &plan)

        var users = Set(touched.compactMap { owners[$0] } + touched.compactMap { snapshot.owners[$0] })
        if let presenter = evidence.presentedBy { users.insert(presenter) }
        let touchedSet = Set(touched)
        var retentionRules: [RetentionRule]?
        for user in users.sorted() {
            let before = snapshot.users[user] ?? StorageSnapshot.User()
            let owned = touched.filter { owners[$0] == user }
            let kept = before.records.evidence
            var records = EvidenceRecords(
                transactions: kept.transactions.filter { !touchedSet.contains($0.originalTransactionID) },
                renewalInfos: kept.renewalInfos.filter { !touchedSet.contains($0.originalTransactionID) })
            for id in owned {
                guard let ledger = merged.ledger(originalTransactionID: id) else { continue }
                records.transactions += ledger.transactions
                if let info = ledger.renewalInfo { records.renewalInfos.append(info) }
            }
            let view = engine.view(of: RecordSet(records), at: now)
            let events = engine.events(from: before.view, to: view)
            plan.views[user] = view
            let toldBefore = eventsToldBefore(movingTo: user, snapshot: snapshot, plan: plan)
            for var event in events {
                event.movedFrom = toldBefore[event.id]
                plan.outbox.append(try OutboxEntry.Draft(event, of: user, appBundleID: evidence.appBundleID))
            }
            try chooseRetention(for: user, before: before, events: events, view: view, snapshot: snapshot, rules: &retentionRules, now: now, into: &plan)
            if !owned.isEmpty {
                plan.audit.append(
                    AuditEntry.Draft(
                        appUserID: user, appBundleID: evidence.appBundleID, at: now, kind: .evidenceApplied,
                        detail: AuditDetail(originalTransactionIDs: owned, eventIDs: events.map(\.id), action: evidence.requestedBy)))
            }
        }
        let unowned = touched.filter { owners[$0] == nil }
        if !unowned.isEmpty {
            plan.audit.append(
                AuditEntry.Draft(appUserID: nil, appBundleID: evidence.appBundleID, at: now, kind: .evidenceApplied, detail: AuditDetail(originalTransactionIDs: unowned)))
        }
        try addOwnershipEvents(evidence: evidence, now: now, into: &plan)
        scheduleChecks(touched, owners: owners, merged: merged, now: now, into: &plan)
        if maintainsAnalytics { countAnalytics(touched, stored: snapshot.records, merged: merged, now: now, into: &plan) }
        return plan
    }

    /// The user's retention choice after this apply (``PerennialCore/RetentionRuleEvaluation``):
    /// written only when it changes, and told to webhooks when it is new. Its event id is the
    /// rule's and the triggering event's, so a choice made again from the same event is not told
    /// twice.
    ///
    /// Without a stored choice nor an event a rule answers, nothing can change, and the rules are
    /// not decoded; else they are, once per apply (`rules`).
    private func chooseRetention(
        for user: AppUserID, before: StorageSnapshot.User, events: [SubscriberEvent], view: SubscriberView, snapshot: StorageSnapshot,
        rules: inout [RetentionRule]?, now: Date, into plan: inout WritePlan
    ) throws(StorageError) {
        let current = before.retentionChoice
        guard current != nil || events.contains(where: { Self.retentionTriggers.contains($0.kind) }) else { return }
        let decoded: [RetentionRule]
        if let rules {
            decoded = rules
        } else {
            decoded = try snapshot.retentionRules()
            rules = decoded
        }
        let next = RetentionRuleEvaluation.next(current: current, events: events, rules: decoded, view: view, at: now)
        guard next != current else { return }
        plan.retentionChoices[user] = .some(next)
        guard let next, next.eventID != current?.eventID else { return }
        plan.outbox.append(
            OutboxEntry.Draft(
                eventID: next.eventID, appUserID: user, appBundleID: plan.evidence.appBundleID, kind: RetentionRuleChoice.kind,
                occurredAt: next.triggeredAt, payload: try StorageJSON.encode(next, what: "retention choice \(next.eventID)")))
    }

    /// The events a retention rule can answer.
    private static let retentionTriggers = Set(RetentionRuleTrigger.allCases.map(\.eventKind))

    /// The events the previous owners of the purchases moving to `user` were already told, by id,
    /// with who was told: the new owner gets them again (its view starts without the purchase), and
    /// they are marked ``PerennialCore/SubscriberEvent/movedFrom``. What the moving evidence itself
    /// adds (a renewal, a refund presented with the move) is new to both and stays unmarked. Event
    /// ids are a pure function of the event, so the same event has the same id for either owner.
    private func eventsToldBefore(movingTo user: AppUserID, snapshot: StorageSnapshot, plan: WritePlan) -> [String: String] {
        var told: [String: String] = [:]
        for change in plan.ownershipChanges where change.decision == .transferred && change.presenter == user {
            guard let previous = snapshot.users[change.previousOwner]?.view else { continue }
            for event in engine.events(from: nil, to: previous) where event.originalTransactionID == change.originalTransactionID {
                told[event.id] = change.previousOwner.rawValue
            }
        }
        return told
    }

    /// Replaces each touched subscription's analytics contribution: facts are a pure function of
    /// its records, so late, repeated or reordered evidence converges to the same counters.
    private func countAnalytics(_ touched: [String], stored: RecordSet, merged: RecordSet, now: Date, into plan: inout WritePlan) {
        let facts = SubscriptionFacts(catalog: engine.catalog, now: now)
        let changed = Set(plan.transactions.map(\.transactionID))
        for id in Set(touched) {
            let (old, new) = (stored.ledger(originalTransactionID: id), merged.ledger(originalTransactionID: id))
            facts.addChange(from: old, to: new, sharing: Self.sharedRecords(old, new, changed: changed), to: &plan.analytics)
        }
    }

    /// How many leading records the stored and merged histories share, told by their ids alone:
    /// a record the plan does not write is the stored version in both (see
    /// ``collectChangedRecords(_:merged:stored:into:)``), so comparing whole records is not needed.
    private static func sharedRecords(_ old: SubscriptionLedger?, _ new: SubscriptionLedger?, changed: Set<String>) -> Int {
        guard let before = old?.transactions, let after = new?.transactions else { return 0 }
        var shared = 0
        while shared < min(before.count, after.count), before[shared].transactionID == after[shared].transactionID,
            !changed.contains(after[shared].transactionID)
        {
            shared += 1
        }
        return shared
    }

    /// The next check of every touched subscription, from the state its owner's new view holds
    /// (or, unowned, its own records' state).
    private func scheduleChecks(_ touched: [String], owners: [String: AppUserID], merged: RecordSet, now: Date, into plan: inout WritePlan) {
        for id in touched {
            let state: SubscriptionState?
            if let owner = owners[id], let view = plan.views[owner] {
                state = view.subscription(originalTransactionID: id)
            } else if let ledger = merged.ledger(originalTransactionID: id) {
                let records = EvidenceRecords(transactions: ledger.transactions, renewalInfos: [ledger.renewalInfo].compactMap { $0 })
                state = engine.view(of: RecordSet(records), at: now).subscription(originalTransactionID: id)
            } else {
                state = nil
            }
            guard let state else { continue }
            plan.checks.append(
                WritePlan.Check(
                    originalTransactionID: id, dueAt: reconciliation.nextCheck(for: state, now: now),
                    sweptUntil: reconciliation.sweptUntil(state)))
        }
    }

    /// Only record versions that differ from the stored ones are written. Only the evidence can
    /// bring such a version (every other record of `merged` is a stored one), so only its records
    /// are compared, not the subscriptions' whole histories.
    private func collectChangedRecords(_ evidence: EvidenceRecords, merged: RecordSet, stored: RecordSet, into plan: inout WritePlan) {
        var transactionIDs = Set<String>()
        for incoming in evidence.transactions where transactionIDs.insert(incoming.transactionID).inserted {
            if let kept = merged.transaction(id: incoming.transactionID), kept != stored.transaction(id: incoming.transactionID) {
                plan.transactions.append(kept)
            }
        }
        var originalTransactionIDs = Set<String>()
        for incoming in evidence.renewalInfos where originalTransactionIDs.insert(incoming.originalTransactionID).inserted {
            let id = incoming.originalTransactionID
            if let kept = merged.ledger(originalTransactionID: id)?.renewalInfo, kept != stored.ledger(originalTransactionID: id)?.renewalInfo {
                plan.renewalInfos.append(kept)
            }
        }
    }

    /// The owner of every touched purchase after this evidence; records bindings and decisions.
    private func decideOwners(
        _ touched: [String], evidence: IncomingEvidence, merged: RecordSet, snapshot: StorageSnapshot, now: Date,
        into plan: inout WritePlan
    ) -> [String: AppUserID] {
        var owners = snapshot.owners
        for id in touched {
            if let owner = owners[id] {
                guard let presenter = evidence.presentedBy, presenter != owner else { continue }
                let decision: OwnershipChange.Decision = transferPolicy == .transfer ? .transferred : .kept
                let change = OwnershipChange(originalTransactionID: id, previousOwner: owner, presenter: presenter, decision: decision)
                if decision == .transferred {
                    owners[id] = presenter
                    plan.bindings.append(WritePlan.Binding(originalTransactionID: id, appUserID: presenter))
                }
                plan.ownershipChanges.append(change)
            } else if let claimant = evidence.presentedBy ?? tokenOwner(of: merged.ledger(originalTransactionID: id), in: snapshot) {
                owners[id] = claimant
                plan.bindings.append(WritePlan.Binding(originalTransactionID: id, appUserID: claimant))
                plan.audit.append(
                    AuditEntry.Draft(appUserID: claimant, appBundleID: evidence.appBundleID, at: now, kind: .bound, detail: AuditDetail(originalTransactionIDs: [id])))
            }
        }
        return owners
    }

    private func tokenOwner(of ledger: SubscriptionLedger?, in snapshot: StorageSnapshot) -> AppUserID? {
        guard let ledger else { return nil }
        let tokens = ledger.transactions.compactMap(\.appAccountToken) + [ledger.renewalInfo?.appAccountToken].compactMap { $0 }
        return tokens.lazy.compactMap { snapshot.tokenOwners[$0] }.first
    }

    /// Both users hear about an ownership decision, whichever way it went.
    private func addOwnershipEvents(evidence: IncomingEvidence, now: Date, into plan: inout WritePlan) throws(StorageError) {
        for change in plan.ownershipChanges {
            let payload = try StorageJSON.encode(change, what: "ownership change of \(change.originalTransactionID)")
            let kind: AuditKind = change.decision == .transferred ? .ownershipTransferred : .ownershipKept
            for user in [change.previousOwner, change.presenter] {
                plan.outbox.append(
                    OutboxEntry.Draft(
                        eventID: "\(change.decision.rawValue):\(change.originalTransactionID):\(evidence.idempotencyKey)",
                        appUserID: user, appBundleID: evidence.appBundleID, kind: change.decision.rawValue, occurredAt: now,
                        payload: payload))
                plan.audit.append(
                    AuditEntry.Draft(
                        appUserID: user, appBundleID: evidence.appBundleID, at: now, kind: kind,
                        detail: AuditDetail(originalTransactionIDs: [change.originalTransactionID], ownershipChange: change)))
            }
        }
    }
}
