import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/RetentionRuleStore`` must have, run by each back end's
/// test target like ``OfferingContract``: rules per app by id within the app's limit, and the
/// choice an apply makes written with its event, in its transaction, once per triggering event,
/// and gone when later (or late) evidence undoes the trigger.
public struct RetentionRuleContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case rulesAreStoredPerAppByIdWithinTheLimit
        case addsAtTheSameInstantStayWithinTheLimit
        case aTriggeringEventRecordsTheChoiceWithItsEvent
        case aRedeliveredTriggerIsToldOnce
        case anUndoneTriggerLeavesNoChoiceInEitherOrder
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .rulesAreStoredPerAppByIdWithinTheLimit: try await rulesAreStoredPerAppByIdWithinTheLimit(storage)
        case .addsAtTheSameInstantStayWithinTheLimit: try await addsAtTheSameInstantStayWithinTheLimit(storage)
        case .aTriggeringEventRecordsTheChoiceWithItsEvent: try await aTriggeringEventRecordsTheChoiceWithItsEvent(storage)
        case .aRedeliveredTriggerIsToldOnce: try await aRedeliveredTriggerIsToldOnce(storage)
        case .anUndoneTriggerLeavesNoChoiceInEitherOrder: try await anUndoneTriggerLeavesNoChoiceInEitherOrder(storage)
        }
    }

    private let other = "com.example.other"
    private let alice: AppUserID = "alice"
    private let now = ContractFixture.day(10)

    private func rule(_ id: String, app: String = ContractFixture.bundleID, priority: Int = 0) -> RetentionRule {
        RetentionRule(
            id: id, appBundleID: app, name: "Keep \(id)", trigger: .autoRenewOff, productIDs: [ContractFixture.productID], offeringID: "winback",
            offer: RetentionRuleOffer(type: .promotional, productID: ContractFixture.productID, offerID: "half-price"), priority: priority,
            validForDays: 7, updatedAt: ContractFixture.day(1), updatedBy: "ops")
    }

    private func purchase(_ storage: any SubscriberStorage) async throws {
        let evidence = ContractFixture.evidence(
            "purchase", by: alice, EvidenceRecords(transactions: [ContractFixture.transaction("1000", original: "1000", purchased: 0)]))
        _ = try await storage.apply(evidence, with: ContractFixture.applier(), now: now)
    }

    /// Apple's notification that auto-renew is `on` or off, signed `signed` days after the origin.
    private func autoRenew(_ on: Bool, signed: Double, key: String) -> IncomingEvidence {
        ContractFixture.evidence(
            key, by: nil, kind: .notificationV2, EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: on, signed: signed)]))
    }

    private func retentionEvents(_ storage: any SubscriberStorage) async throws -> [OutboxEntry] {
        try await storage.pendingOutbox(limit: 100).filter { $0.event.kind == RetentionRuleChoice.kind }
    }

    func rulesAreStoredPerAppByIdWithinTheLimit(_ storage: any SubscriberStorage) async throws {
        let (keep, rescue, elsewhere) = (rule("keep", priority: 5), rule("b-rescue"), rule("keep", app: other))
        for added in [keep, rescue, elsewhere] { #expect(try await storage.addRetentionRule(added, limit: 2) == .written) }
        #expect(try await storage.retentionRules(appBundleID: ContractFixture.bundleID) == [rescue, keep])
        #expect(try await storage.retentionRules(appBundleID: other) == [elsewhere])
        #expect(try await storage.addRetentionRule(rule("keep"), limit: 5) == .idTaken)
        #expect(try await storage.addRetentionRule(rule("third"), limit: 2) == .limitReached(2))

        var disabled = keep
        disabled.isEnabled = false
        disabled.offer = nil
        #expect(try await storage.replaceRetentionRule(disabled) == .written)
        #expect(try await storage.replaceRetentionRule(rule("missing")) == .noSuchRule)
        #expect(try await storage.retentionRules(appBundleID: ContractFixture.bundleID) == [rescue, disabled])
        #expect(try await storage.removeRetentionRule(id: "keep", appBundleID: ContractFixture.bundleID) == disabled)
        #expect(try await storage.removeRetentionRule(id: "keep", appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await storage.retentionRules(appBundleID: other) == [elsewhere])
        #expect(try await storage.addRetentionRule(rule("third"), limit: 2) == .written)
    }

    /// Operators adding rules at once: each add counts the rules already there, so two counting
    /// at the same instant must not both find room for the last one.
    func addsAtTheSameInstantStayWithinTheLimit(_ storage: any SubscriberStorage) async throws {
        let writes = try await withThrowingTaskGroup(of: RetentionRuleWrite.self) { group in
            for index in 0..<16 { group.addTask { try await storage.addRetentionRule(rule("rule-\(index)"), limit: 3) } }
            return try await group.reduce(into: [RetentionRuleWrite]()) { $0.append($1) }
        }
        #expect(writes.filter { $0 == .written }.count == 3)
        #expect(writes.filter { $0 == .limitReached(3) }.count == 13)
        #expect(try await storage.retentionRules(appBundleID: ContractFixture.bundleID).count == 3)
    }

    func aTriggeringEventRecordsTheChoiceWithItsEvent(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addRetentionRule(rule("keep"), limit: 10) == .written)
        try await purchase(storage)
        #expect(try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID) == nil)

        guard case .applied(let applied) = try await storage.apply(autoRenew(false, signed: 5, key: "off"), with: ContractFixture.applier(), now: now) else {
            Issue.record("the cancellation was not applied")
            return
        }
        let cancellation = try #require(applied.events.first { $0.kind == EventKind.cancellation.rawValue })
        let told = try #require(applied.events.first { $0.kind == RetentionRuleChoice.kind })
        let choice = try #require(try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID))
        #expect(choice.ruleID == "keep" && choice.triggerEventID == cancellation.eventID && choice.offeringID == "winback")
        #expect(choice.offer?.offerID == "half-price")
        #expect(choice.triggeredAt == ContractFixture.day(5) && choice.validUntil == ContractFixture.day(12))
        #expect(told.eventID == choice.eventID && told.appUserID == alice)
        #expect(try JSONDecoder().decode(RetentionRuleChoice.self, from: told.payload) == choice)
        #expect(try await retentionEvents(storage).map(\.event.eventID) == [choice.eventID])
        #expect(try await storage.retentionChoice(of: "bob", appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await storage.retentionChoice(of: alice, appBundleID: other) == nil)
    }

    func aRedeliveredTriggerIsToldOnce(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addRetentionRule(rule("keep"), limit: 10) == .written)
        try await purchase(storage)
        _ = try await storage.apply(autoRenew(false, signed: 5, key: "off"), with: ContractFixture.applier(), now: now)
        let first = try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID)
        // The same notification again, and Apple's redelivery of the same renewal info under another key.
        #expect(try await storage.apply(autoRenew(false, signed: 5, key: "off"), with: ContractFixture.applier(), now: now).isDuplicate)
        _ = try await storage.apply(autoRenew(false, signed: 5, key: "off-again"), with: ContractFixture.applier(), now: ContractFixture.day(11))
        #expect(try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID) == first)
        #expect(try await retentionEvents(storage).count == 1)
    }

    func anUndoneTriggerLeavesNoChoiceInEitherOrder(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addRetentionRule(rule("keep"), limit: 10) == .written)
        try await purchase(storage)
        _ = try await storage.apply(autoRenew(false, signed: 5, key: "off"), with: ContractFixture.applier(), now: now)
        #expect(try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID) != nil)
        _ = try await storage.apply(autoRenew(true, signed: 6, key: "on"), with: ContractFixture.applier(), now: now)
        #expect(try await storage.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID) == nil)

        // Out of order: auto-renew back on is known before the older cancellation arrives.
        let late = try await makeStorage()
        try await late.migrate()
        #expect(try await late.addRetentionRule(rule("keep"), limit: 10) == .written)
        try await purchase(late)
        _ = try await late.apply(autoRenew(true, signed: 6, key: "on"), with: ContractFixture.applier(), now: now)
        _ = try await late.apply(autoRenew(false, signed: 5, key: "off"), with: ContractFixture.applier(), now: now)
        #expect(try await late.retentionChoice(of: alice, appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await retentionEvents(late).isEmpty)
    }
}

extension ApplyResult {
    fileprivate var isDuplicate: Bool {
        if case .duplicate = self { return true }
        return false
    }
}
