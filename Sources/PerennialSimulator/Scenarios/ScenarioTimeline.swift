public import Foundation
import PerennialAppStore

/// What a scenario run did, step by step: the notifications each step emitted and the delivery
/// attempts made while it ran, for the CLI's output and for tests.
public struct ScenarioTimeline: Hashable, Sendable {
    /// One step's effects.
    public struct Entry: Hashable, Sendable {
        /// The step's index in the file.
        public let step: Int
        /// The step's key (`purchase`, `advance`, …).
        public let key: String
        /// The store's instant after the step.
        public let at: Date
        public let notifications: [Notification]
        public let deliveries: [DeliveryAttempt]
    }

    /// One emitted notification as the timeline shows it.
    public struct Notification: Hashable, Sendable {
        /// Apple's type string, e.g. `DID_RENEW`.
        public let type: String
        public let subtype: String?
        public let notificationUUID: String
        public let originalTransactionID: String
        /// The transaction the payload carries.
        public let transactionID: String?
        /// The subscription's alias in the scenario, when it has one.
        public let alias: String?
        /// The whole V2 notification (payload and signed body), for callers that inspect bytes.
        public let wire: WireNotification

        /// `TYPE` or `TYPE/SUBTYPE`, the spelling of `expect` steps.
        public var kind: String { subtype.map { "\(type)/\($0)" } ?? type }

        init(_ wire: WireNotification, alias: String?) {
            type = wire.intent.type.rawValue
            subtype = wire.intent.subtype?.rawValue
            notificationUUID = wire.payload.notificationUUID ?? ""
            originalTransactionID = wire.intent.originalTransactionID
            transactionID = wire.intent.transactionID
            self.alias = alias
            self.wire = wire
        }
    }

    public internal(set) var entries: [Entry] = []

    /// Every notification of the run, in emission order.
    public var notifications: [Notification] { entries.flatMap(\.notifications) }
}
