import Foundation
import PerennialAppStore
import PerennialCore

// The JSON bodies of the `/simulator/v1` device and control API. Keys are the
// API's own (camelCase, `productId` like Apple's JSON); dates are ISO 8601 with milliseconds.

/// `GET /clock`.
struct ClockBody: Codable {
    let now: Date
}

/// `POST /clock/advance`: either a number of seconds or a target instant.
struct AdvanceBody: Decodable {
    let seconds: Double?
    let to: Date?
}

/// What a step sent: the clock after it and its notifications.
struct StepBody: Encodable {
    let now: Date
    let notifications: [NotificationBody]
}

/// One emitted notification, as a test reads it.
struct NotificationBody: Encodable {
    let notificationUUID: String
    let notificationType: String
    let subtype: String?
    let signedDate: Date
    let originalTransactionId: String?
    let transactionId: String?
    /// The V2 body's JWS.
    let signedPayload: String?
    /// The V1 `notification_type`, when V1 has an equivalent.
    let v1NotificationType: String?

    init(_ notification: WireNotification) {
        notificationUUID = notification.notificationUUID
        notificationType = notification.intent.type.rawValue
        subtype = notification.intent.subtype?.rawValue
        signedDate = notification.intent.date
        originalTransactionId = notification.intent.originalTransactionID.isEmpty ? nil : notification.intent.originalTransactionID
        transactionId = notification.intent.transactionID
        signedPayload = notification.body.signedPayload
        v1NotificationType = notification.v1?.notification_type?.rawValue
    }
}

/// `POST /accounts`.
struct AccountBody: Decodable {
    let id: String
    let storefront: String?
    let renewal: RenewalBehavior?
    /// `{"date": ISO 8601, "version": "1.0"}`: when the tester bought the app, in which version.
    let appDownload: AppDownload?

    enum CodingKeys: String, CodingKey { case id, storefront, renewal, appDownload }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        appDownload = try container.decodeIfPresent(AppDownload.self, forKey: .appDownload)
        guard container.contains(.renewal), try !container.decodeNil(forKey: .renewal) else {
            renewal = nil
            return
        }
        // "renew" | "failBilling" | {"failWithProbability": 0.3}
        if let word = try? container.decode(String.self, forKey: .renewal) {
            switch word {
            case "renew": renewal = .renew
            case "failBilling": renewal = .failBilling
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .renewal, in: container, debugDescription: "renewal is \"renew\", \"failBilling\" or {\"failWithProbability\": p}, not \"\(word)\"")
            }
        } else {
            let probability = try container.decode(ProbabilityBody.self, forKey: .renewal)
            renewal = .failWithProbability(probability.failWithProbability)
        }
    }

    struct ProbabilityBody: Decodable {
        let failWithProbability: Double
    }
}

/// `POST /purchases`.
struct PurchaseBody: Decodable {
    let account: String
    let productId: String
    let appAccountToken: UUID?
    let offer: OfferBody?
    let askToBuy: Bool?
    let quantity: Int?
    /// `monthly` for the monthly plan with a 12-month commitment.
    let billingPlan: String?

    struct OfferBody: Decodable {
        let type: String
        let id: String?
        let paymentMode: String?
        let period: String?
        let signature: PromotionalOfferSignature?
        let compactJWS: String?
    }

    var purchase: DevicePurchase {
        DevicePurchase(
            accountID: account, productID: productId, appAccountToken: appAccountToken,
            offer: offer.map {
                DeviceOffer(
                    type: OfferType(rawValue: $0.type), id: $0.id, paymentMode: $0.paymentMode.map(OfferPaymentMode.init(rawValue:)),
                    period: $0.period, signature: $0.signature, compactJWS: $0.compactJWS)
            },
            quantity: quantity ?? 1, askToBuy: askToBuy ?? false, billingPlan: billingPlan.map(BillingPlan.init(rawValue:)))
    }
}

/// The answer to a purchase or an approval.
struct PurchaseAnswer: Encodable {
    let status: String
    var signedTransaction: String?
    var transactionId: String?
    var originalTransactionId: String?
    var receipt: String?
    var pendingId: String?
    var notifications: [NotificationBody]?

    init(_ completed: CompletedPurchase) {
        status = "purchased"
        signedTransaction = completed.signedTransaction
        transactionId = completed.transaction.transactionID
        originalTransactionId = completed.transaction.originalTransactionID
        receipt = completed.receipt?.base64
        notifications = completed.step.notifications.map(NotificationBody.init)
    }

    init(pendingID: String) {
        status = "pending"
        pendingId = pendingID
    }

    init(status: String) {
        self.status = status
    }
}

/// `{"signedTransactions": [...]}`.
struct SignedTransactionsBody: Encodable {
    let signedTransactions: [String]
}

/// `{"receipt": "<base64>"}`.
struct ReceiptBody: Encodable {
    let receipt: String
}

/// `GET /accounts/{id}/transactions/{transactionId}/transaction-receipt`: an iOS 6 receipt.
struct TransactionReceiptBody: Encodable {
    let transactionReceipt: String
}

/// `GET /accounts/{id}/app-transaction`.
struct AppTransactionBody: Encodable {
    let signedAppTransaction: String
}

/// `PUT /verify-receipt-failure`: `{"status": 21005}`, `{"status": 21105, "retryable": true}`,
/// `{"http503": true}`; `null` (or `{}`) clears.
struct VerifyReceiptFailureBody: Decodable {
    let status: Int?
    let retryable: Bool?
    let http503: Bool?

    var failure: InjectedVerifyReceiptFailure? {
        if http503 == true { return .serviceUnavailableHTML }
        guard let status else { return nil }
        let code = VerifyReceiptStatus(rawValue: status)
        return code.isInternalDataAccessRange ? .internalError(code, retryable: retryable ?? false) : .status(code)
    }
}

/// One notification in `GET /timeline`, with every attempt and how it was answered.
struct TimelineEntry: Encodable {
    let notificationUUID: String
    let notificationType: String
    let subtype: String?
    let firstSendDate: Date
    let dropped: Bool
    let attempts: [AttemptBody]

    struct AttemptBody: Encodable {
        let version: String
        let attempt: Int
        let at: Date
        /// `answered`, `failed` or `dropped`.
        let outcome: String
        let status: Int?
        let reason: String?
    }

    init(_ record: NotificationRecord) {
        notificationUUID = record.notification.notificationUUID
        notificationType = record.notification.intent.type.rawValue
        subtype = record.notification.intent.subtype?.rawValue
        firstSendDate = record.firstSendDate
        dropped = record.dropped
        attempts = record.attempts.map { attempt in
            switch attempt.outcome {
            case .answered(let status):
                AttemptBody(version: attempt.version.rawValue, attempt: attempt.attempt, at: attempt.at, outcome: "answered", status: status, reason: nil)
            case .failed(let reason):
                AttemptBody(version: attempt.version.rawValue, attempt: attempt.attempt, at: attempt.at, outcome: "failed", status: nil, reason: reason)
            case .dropped:
                AttemptBody(version: attempt.version.rawValue, attempt: attempt.attempt, at: attempt.at, outcome: "dropped", status: nil, reason: nil)
            }
        }
    }
}

/// `GET /timeline`: `{"notifications": [...]}`, oldest first.
struct TimelineBody: Encodable {
    let notifications: [TimelineEntry]
}

/// `PUT /faults`: the fields of ``DeliveryFaults``, each optional (absent = no such fault).
struct FaultsBody: Decodable {
    let duplicateProbability: Double?
    let reorder: Bool?
    let delay: TimeInterval?
    let dropProbability: Double?
    let dropNext: Int?

    var faults: DeliveryFaults {
        DeliveryFaults(
            duplicateProbability: duplicateProbability ?? 0, reorder: reorder ?? false, delay: delay ?? 0,
            dropProbability: dropProbability ?? 0, dropNext: dropNext ?? 0)
    }
}

/// `GET /roots`.
struct RootsBody: Encodable {
    let jwsRoot: String
    let receiptRoot: String?
}
