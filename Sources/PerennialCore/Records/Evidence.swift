public import Foundation

/// Where a record came from — the form of the bytes it was read from — kept on every record so
/// that a subscriber's timeline can be audited and so that two versions of the same record can be
/// ordered, and on verified evidence (`AppEvidenceVerifier.Verified.source`) so that digests of
/// different forms never collide. How the evidence reached the server (posted by an app, notified,
/// asked of Apple, presented again by an operator) is its `EvidenceKind`, a separate question: a
/// serverAPI answer arrives by reconciliation, a support lookup or an import.
public struct EvidenceSource: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A PKCS#7 app receipt decoded locally (the `in_app` records of the receipt).
    public static let appReceipt: Self = "appReceipt"
    /// A verifyReceipt answer (`latest_receipt_info`, `pending_renewal_info`).
    public static let verifyReceipt: Self = "verifyReceipt"
    /// An iOS 6 style transaction receipt.
    public static let transactionReceipt: Self = "transactionReceipt"
    /// A StoreKit 2 signed transaction or renewal info posted by an app.
    public static let signedTransaction: Self = "signedTransaction"
    /// App Store Server Notifications version 1 (`unified_receipt`).
    public static let notificationV1: Self = "notificationV1"
    /// App Store Server Notifications version 2 (signed).
    public static let notificationV2: Self = "notificationV2"
    /// An App Store Server API answer (statuses, history, transaction info).
    public static let serverAPI: Self = "serverAPI"
    /// Records already stored, each with its own source, presented again for another user (an
    /// operator's move, a log-in): the source of such a presentation, never of a record.
    public static let storedRecords: Self = "storedRecords"
}

/// The provenance of one record: its source and the instant that orders it against other
/// versions of the same record.
public struct Provenance: Hashable, Sendable, Codable {
    public var source: EvidenceSource
    /// Apple's `signedDate` for signed payloads. Legacy evidence carries no signature date, so it
    /// is the time Apple answered (`request_date` of verifyReceipt, `receipt_creation_date` of a
    /// receipt, the arrival time of a V1 notification).
    public var versionDate: Date
    /// True when `versionDate` is a real `signedDate`; legacy answer times lose a tie against it.
    public var isSigned: Bool

    public init(source: EvidenceSource, versionDate: Date, isSigned: Bool) {
        self.source = source
        self.versionDate = versionDate
        self.isSigned = isSigned
    }
}
