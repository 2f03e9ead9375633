public import PerennialCore

/// What sort of evidence was received; kept with the raw bytes so that an audit (or a replay after
/// an engine fix) knows how to read them again.
///
/// Open (see ``OpenValue``) because new ways of learning about purchases will come, and stored
/// rows written by a newer server must still load in an older one.
public struct EvidenceKind: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A PKCS#7 app receipt (or its verifyReceipt answer) posted by an app.
    public static let receipt: Self = "receipt"
    /// A StoreKit 2 signed transaction posted by an app.
    public static let signedTransaction: Self = "signedTransaction"
    /// An App Store Server Notification, version 1.
    public static let notificationV1: Self = "notificationV1"
    /// An App Store Server Notification, version 2.
    public static let notificationV2: Self = "notificationV2"
    /// A StoreKit 2 app transaction posted by an app: the proof of a user's original app purchase,
    /// kept apart from the subscription records (``AppTransactionStore``).
    public static let appTransaction: Self = "appTransaction"
    /// An App Store Server API answer fetched by Perennial.
    public static let serverAPI: Self = "serverAPI"
    /// The result of a reconciliation job comparing stored state with Apple's.
    public static let reconciliation: Self = "reconciliation"
    /// A purchase's stored records presented again by an operator on a user's behalf (moving the
    /// purchase to that user), so it goes through the same ownership decision as any presenter.
    public static let adminAction: Self = "adminAction"
    /// A purchase's stored records presented again for the user an anonymous user logged in as
    /// (`POST /v1/subscribers/{id}/log-in`): the app's transfer policy decides whether it moves.
    public static let logIn: Self = "logIn"
    /// Apple's records of a purchase a previous backend held, fetched by an import
    /// (`perennial import`) and presented for the app user the previous backend named.
    public static let imported: Self = "import"
    /// Apple's realtime Get Retention Message request: verified like evidence (its refusals are
    /// counted under this kind), though it changes no record.
    public static let retentionRequest: Self = "retentionRequest"
}
