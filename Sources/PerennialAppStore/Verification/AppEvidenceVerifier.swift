public import Foundation
public import PerennialCore

/// Every rule that decides whether evidence belongs to one app, for every kind of evidence Apple
/// or an app can present: signatures against the app's roots, the bundle id, an environment the
/// app accepts, the app Apple id in production, the shared secret of V1 notifications.
///
/// Written once here, beside the verifiers it composes, so that no caller can apply the rules of
/// one kind and forget those of another; what comes out is already normalized into records, so
/// a caller never sees Apple's shapes.
public struct AppEvidenceVerifier: Sendable {
    /// How the app's posted receipts are verified.
    public enum Receipts: Sendable {
        /// Sent to verifyReceipt with the shared secret; Apple's answer is the evidence.
        case verifyReceipt(VerifyReceiptClient)
        /// Verified here against the receipt roots; the receipt's in-app records are the evidence.
        case local(AppReceiptVerifier)
    }

    /// What verified evidence yields, normalized.
    public struct Verified: Sendable {
        /// The records it carries; empty for a notification about nothing stored (`TEST`, summaries).
        public var records: EvidenceRecords
        public var environment: AppStoreEnvironment
        /// The bytes that were verified: what is stored as the evidence's raw form.
        public var raw: Data
        /// What `raw` is, the same value its records carry as their provenance, so that digests of
        /// different sources never collide.
        public var source: EvidenceSource
        /// Apple's own id of the evidence when it has one (a V2 notification's `notificationUUID`).
        public var appleID: String?
        /// Apple's notification type, for notifications.
        public var notificationType: String?
        /// When Apple signed a V2 notification: the start of a `CONSUMPTION_REQUEST`'s 12-hour window.
        public var signedDate: Date?
        /// A `CONSUMPTION_REQUEST`'s `consumptionRequestReason`.
        public var consumptionRequestReason: String?
        /// The `appTransactionId` of a notification about the app rather than a purchase
        /// (`RESCIND_CONSENT`'s `appData.signedAppTransactionInfo`).
        public var appTransactionID: String?

        public init(
            records: EvidenceRecords, environment: AppStoreEnvironment, raw: Data, source: EvidenceSource, appleID: String? = nil,
            notificationType: String? = nil, signedDate: Date? = nil, consumptionRequestReason: String? = nil, appTransactionID: String? = nil
        ) {
            self.records = records
            self.environment = environment
            self.raw = raw
            self.source = source
            self.appleID = appleID
            self.notificationType = notificationType
            self.signedDate = signedDate
            self.consumptionRequestReason = consumptionRequestReason
            self.appTransactionID = appTransactionID
        }
    }

    public let appID: String
    public let bundleID: String
    /// Accepted environments, in the configured order.
    public let environments: [AppStoreEnvironment]
    /// One verifier per accepted environment, because Apple's checks differ per environment.
    let signedData: [AppStoreEnvironment: SignedDataVerifier]
    /// Compared with V1 notifications' `password` and sent to verifyReceipt.
    public let sharedSecret: String?
    public let receipts: Receipts?

    public init(
        appID: String, bundleID: String, environments: [AppStoreEnvironment], signedData: [AppStoreEnvironment: SignedDataVerifier],
        sharedSecret: String?, receipts: Receipts?
    ) {
        self.appID = appID
        self.bundleID = bundleID
        self.environments = environments
        self.signedData = signedData
        self.sharedSecret = sharedSecret
        self.receipts = receipts
    }

    /// Whether the app accepts evidence from `environment`.
    public func accepts(_ environment: AppStoreEnvironment) -> Bool {
        environments.contains(environment)
    }

    /// The verifier for evidence claiming `environment`, nil when the app does not accept it.
    public func signedDataVerifier(for environment: AppStoreEnvironment) -> SignedDataVerifier? {
        signedData[environment]
    }

    private var accepted: [String] { environments.map(\.rawValue) }

    // MARK: - Signed data (StoreKit 2, V2 notifications, Server API answers)

    /// A StoreKit 2 signed transaction posted by the app.
    public func signedTransaction(_ signed: String) async throws(EvidenceError) -> Verified {
        let verifier = try verifier(claimedBy: signed)
        let transaction: Transaction
        do {
            transaction = try await verifier.verifyTransaction(signed).transaction(source: .signedTransaction)
        } catch let error as SignedDataVerificationError {
            throw EvidenceError(error, accepted: accepted)
        } catch {
            throw .invalidEvidence("\(error)")
        }
        return Verified(
            records: EvidenceRecords(transactions: [transaction]), environment: verifier.environment, raw: Data(signed.utf8),
            source: .signedTransaction)
    }

    /// A StoreKit 2 `AppTransaction` posted by the app (`AppTransaction.shared`'s
    /// `jwsRepresentation`): signature, bundle id, environment (its `receiptType`) and, in
    /// production, app Apple id, like every signed payload, so that a customer cannot claim an
    /// original purchase with another app's or a forged transaction.
    public func appTransaction(_ signed: String) async throws(EvidenceError) -> OriginalAppPurchase {
        let verifier = try verifier(claimedBy: signed)
        let payload: AppTransaction
        do throws(SignedDataVerificationError) {
            payload = try await verifier.verifyAppTransaction(signed)
        } catch {
            throw EvidenceError(error, accepted: accepted)
        }
        guard let version = payload.originalApplicationVersion, !version.isEmpty else {
            throw .invalidEvidence("the app transaction has no originalApplicationVersion")
        }
        guard let purchased = payload.originalPurchaseDate else { throw .invalidEvidence("the app transaction has no originalPurchaseDate") }
        return OriginalAppPurchase(
            appTransactionID: payload.appTransactionId, originalApplicationVersion: version, originalPurchaseDate: purchased,
            environment: verifier.environment, originalPlatform: payload.originalPlatform?.rawValue)
    }

    /// A V2 notification's body (`{"signedPayload": …}`): the envelope's and every nested JWS's
    /// signature, bundle id, environment and, in production, app Apple id.
    public func notificationV2(body: Data) async throws(EvidenceError) -> Verified {
        // The one field is peeked rather than decoded: the body is kilobytes of JWS that
        // `JSONDecoder` would scan character by character on its way to a `String`.
        let peeked: String?
        do {
            peeked = try JSONFieldPeek.string(at: ["signedPayload"], in: body)
        } catch {
            throw .malformedRequest("the body is not {\"signedPayload\": …}: \(error)")
        }
        guard let signedPayload = peeked else { throw .malformedRequest("no signedPayload") }
        let verifier = try verifier(claimedBy: signedPayload)
        let notification: VerifiedNotification
        do throws(SignedDataVerificationError) {
            notification = try await verifier.verifyNotification(signedPayload)
        } catch {
            throw EvidenceError(error, accepted: accepted)
        }
        guard let uuid = notification.payload.notificationUUID, !uuid.isEmpty else {
            throw .invalidEvidence("the notification has no notificationUUID")
        }
        var records = EvidenceRecords()
        do throws(NormalizationError) {
            if let transaction = notification.transaction { records.transactions.append(try transaction.transaction(source: .notificationV2)) }
            if let info = notification.renewalInfo { records.renewalInfos.append(try info.renewalInfo(source: .notificationV2)) }
        } catch {
            throw .invalidEvidence(error.description)
        }
        try Self.check(
            records.renewalInfos.first?.originalTransactionID, in: "the notification's signedRenewalInfo",
            belongsTo: records.transactions.first?.originalTransactionID)
        return Verified(
            records: records, environment: verifier.environment, raw: body, source: .notificationV2, appleID: uuid,
            notificationType: notification.payload.notificationType?.rawValue ?? "unknown", signedDate: notification.payload.signedDate,
            consumptionRequestReason: notification.payload.data?.consumptionRequestReason?.rawValue,
            appTransactionID: notification.appTransaction?.appTransactionId)
    }

    /// A realtime request to the Get Retention Message endpoint (`{"signedPayload": …}`), verified
    /// against the app's roots, environment and (production) app Apple id.
    public func realtimeRequest(body: Data) async throws(EvidenceError) -> DecodedRealtimeRequestBody {
        let request: RealtimeRequestBody
        do {
            request = try JSONDecoder().decode(RealtimeRequestBody.self, from: body)
        } catch {
            throw .malformedRequest("the body is not {\"signedPayload\": …}: \(error)")
        }
        let verifier = try verifier(claimedBy: request.signedPayload)
        do throws(SignedDataVerificationError) {
            return try await verifier.verifyRealtimeRequest(request.signedPayload)
        } catch {
            throw EvidenceError(error, accepted: accepted)
        }
    }

    /// The App Store Server API's Get All Subscription Statuses answer: every signed transaction
    /// and renewal info in it, verified, each entry's three names of its purchase (its
    /// `originalTransactionId`, its transaction's and its renewal info's) the same; `fallback` is
    /// the environment when the answer names none.
    public func subscriptionStatuses(_ data: Data, fallback: AppStoreEnvironment) async throws(EvidenceError) -> Verified {
        let response: StatusResponse
        do {
            response = try JSONDecoder().decode(StatusResponse.self, from: data)
        } catch {
            throw .invalidEvidence("subscription statuses: \(error)")
        }
        let environment = response.environment.map { AppStoreEnvironment(rawValue: $0.rawValue) } ?? fallback
        guard let verifier = signedData[environment] else {
            throw .wrongEnvironment(accepted: accepted, actual: environment.rawValue)
        }
        var records = EvidenceRecords()
        for item in (response.data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
            var transaction: Transaction?
            var renewalInfo: RenewalInfo?
            do {
                if let signed = item.signedTransactionInfo {
                    transaction = try await verifier.verifyTransaction(signed).transaction(source: .serverAPI)
                }
                if let signed = item.signedRenewalInfo {
                    renewalInfo = try await verifier.verifyRenewalInfo(signed).renewalInfo(source: .serverAPI)
                }
            } catch let error as SignedDataVerificationError {
                throw EvidenceError(error, accepted: accepted)
            } catch {
                throw .invalidEvidence("\(error)")
            }
            let purchase = transaction?.originalTransactionID
            try Self.check(item.originalTransactionId, in: "a subscription status's originalTransactionId", belongsTo: purchase)
            try Self.check(renewalInfo?.originalTransactionID, in: "a subscription status's signedRenewalInfo", belongsTo: purchase ?? item.originalTransactionId)
            if let transaction { records.transactions.append(transaction) }
            if let renewalInfo { records.renewalInfos.append(renewalInfo) }
        }
        return Verified(records: records, environment: environment, raw: data, source: .serverAPI)
    }

    /// The App Store Server API's Look Up Order ID answer: the order's signed transactions, each
    /// verified; nil when Apple knows no such order (status 1) or it has no transaction.
    public func orderLookup(_ data: Data) async throws(EvidenceError) -> Verified? {
        let response: OrderLookupResponse
        do {
            response = try JSONDecoder().decode(OrderLookupResponse.self, from: data)
        } catch {
            throw .invalidEvidence("order lookup: \(error)")
        }
        guard response.status == .valid else { return nil }
        return try await signedTransactions(response.signedTransactions ?? [], raw: data)
    }

    /// Signed transactions the App Store Server API answered in a list (Look Up Order ID, Get
    /// Refund History), each verified with every rule; nil when there is none. `raw` is what is
    /// stored as the evidence.
    public func signedTransactions(_ signed: [String], raw: Data) async throws(EvidenceError) -> Verified? {
        var records = EvidenceRecords()
        var environment: AppStoreEnvironment?
        for jws in signed {
            let verifier = try verifier(claimedBy: jws)
            if environment == nil { environment = verifier.environment }
            do {
                records.transactions.append(try await verifier.verifyTransaction(jws).transaction(source: .serverAPI))
            } catch let error as SignedDataVerificationError {
                throw EvidenceError(error, accepted: accepted)
            } catch {
                throw .invalidEvidence("\(error)")
            }
        }
        guard let environment else { return nil }
        return Verified(records: records, environment: environment, raw: raw, source: .serverAPI)
    }

    /// Evidence that carries a transaction and something said beside it (its renewal info, a
    /// status entry's id) speaks of one purchase: `found`, what `place` names, must be `purchase`
    /// when both are known. Records are filed by original transaction id, so a mismatch would
    /// put the renewal facts of one purchase on another.
    private static func check(_ found: String?, in place: String, belongsTo purchase: String?) throws(EvidenceError) {
        guard let found, let purchase, found != purchase else { return }
        throw .mismatchedPurchase(place: place, expected: purchase, found: found)
    }

    /// The verifier of the environment a signed payload claims: read before verification to pick
    /// it, and checked again by that verifier after the signature, so a lie is caught.
    func verifier(claimedBy signed: String) throws(EvidenceError) -> SignedDataVerifier {
        guard let claimed = Self.claimedEnvironment(of: signed) else {
            // Not even decodable: let any verifier produce the precise format error.
            guard let any = environments.lazy.compactMap({ signedData[$0] }).first else {
                throw .notConfigured("app \(appID) accepts no environment")
            }
            return any
        }
        guard let verifier = signedData[claimed] else { throw .wrongEnvironment(accepted: accepted, actual: claimed.rawValue) }
        return verifier
    }

    private static let environmentPaths = [["data", "environment"], ["summary", "environment"], ["appData", "environment"], ["environment"], ["receiptType"]]

    /// The environment a signed payload claims, nil when it names none or is not a JWS.
    ///
    /// Only a hint, so it is read cheaply: the payload segment is decoded but not parsed (a
    /// notification's payload carries kilobytes of nested JWS); ``JSONFieldPeek`` finds
    /// `environment` where Apple's payloads put it (under `data`, `summary` or `appData`, or at the
    /// top level), else `receiptType`, in one walk.
    public static func claimedEnvironment(of signed: String) -> AppStoreEnvironment? {
        guard let payload = try? JWSDecoding.unverifiedPayload(of: signed) else { return nil }
        return (try? JSONFieldPeek.firstString(at: environmentPaths, in: payload)).flatMap { $0.map(AppStoreEnvironment.init(rawValue:)) }
    }

    // MARK: - Legacy evidence (V1 notifications, receipts, verifyReceipt)

    /// A V1 notification's body, authenticated by its `password` — the app's shared secret,
    /// compared in constant time, the only proof a V1 notification carries.
    public func notificationV1(body: Data, receivedAt now: Date) throws(EvidenceError) -> Verified {
        guard let secret = sharedSecret else {
            throw .notConfigured("app \(appID) has no shared secret to authenticate V1 notifications")
        }
        let notification: NotificationV1
        do {
            notification = try JSONDecoder().decode(NotificationV1.self, from: body)
        } catch {
            throw .malformedRequest("the body is not a V1 notification: \(error)")
        }
        guard let password = notification.password, ConstantTime.equals(password, secret) else { throw .wrongSharedSecret }
        let bundle = notification.bid ?? notification.unified_receipt?.latest_receipt_info?.first?.bid
        guard bundle == bundleID else { throw .wrongBundleID(expected: bundleID, actual: bundle) }
        // Pre-2021 bodies spell production "PROD".
        let claimed = notification.unified_receipt?.environment ?? notification.environment
        guard let environment = claimed?.coreValue, accepts(environment) else {
            throw .wrongEnvironment(accepted: accepted, actual: claimed?.rawValue)
        }
        let records: EvidenceRecords
        do throws(NormalizationError) {
            records = try notification.evidenceRecords(versionDate: Self.snapshotDate(of: notification, receivedAt: now))
        } catch {
            throw .invalidEvidence(error.description)
        }
        return Verified(
            records: records, environment: environment, raw: body, source: .notificationV1,
            notificationType: notification.notification_type?.rawValue ?? "unknown")
    }

    /// When Apple took a V1 notification's snapshot of the subscription: the creation date of the
    /// `latest_receipt` it carries, which a retry hours later carries unchanged, so a late or
    /// retried notification cannot outrank evidence Apple produced after it. Never later than its
    /// arrival (the receipt is only as trusted as the body's password); the arrival itself when the
    /// body has no receipt that dates it.
    static func snapshotDate(of notification: NotificationV1, receivedAt: Date) -> Date {
        guard let latest = notification.unified_receipt?.latest_receipt,
            case .appReceipt(let parsed)? = try? ReceiptDocument.decode(Array(latest.utf8)),
            let created = parsed.receipt.creationDate
        else { return receivedAt }
        return min(created, receivedAt)
    }

    /// A receipt posted by the app (an app receipt, or an iOS 6 transaction receipt through
    /// verifyReceipt), base64 or DER, verified the way the app is configured.
    public func receipt(_ receipt: String, receivedAt now: Date) async throws(EvidenceError) -> Verified {
        let der: Data
        let document: ReceiptDocument
        do throws(ReceiptError) {
            der = try ReceiptInput.bytes(fromBase64OrDER: Array(receipt.utf8))
            // From the posted text: decoding reads base64 itself, and an iOS 6 receipt's plist is
            // neither base64 nor DER once decoded.
            document = try ReceiptDocument.decode(Array(receipt.utf8))
        } catch {
            throw .malformedReceipt(error.reason)
        }
        switch receipts {
        case .verifyReceipt(let client):
            guard let secret = sharedSecret else { throw .notConfigured("app \(appID) has no shared secret for verifyReceipt") }
            let answer = try await askVerifyReceipt(
                receipt.filter { !$0.isWhitespace }, client: client, secret: secret, startingAt: accepts(.production) ? .production : .sandbox)
            return try verifyReceiptAnswer(answer, receivedAt: now)
        case .local(let verifier):
            guard case .appReceipt(let parsed) = document else {
                throw .notConfigured("iOS 6 transaction receipts can only be verified through verifyReceipt")
            }
            return try await locally(parsed, der: der, verifier: verifier)
        case nil:
            throw .notConfigured("app \(appID) has no receipt verification (set receipts.sharedSecret or receipts.roots)")
        }
    }

    /// Asks verifyReceipt again about a receipt already accepted (reconciliation), starting at the
    /// environment it came from.
    public func reverifyReceipt(_ receipt: String, environment: AppStoreEnvironment, receivedAt now: Date) async throws(EvidenceError) -> Verified {
        guard case .verifyReceipt(let client) = receipts, let secret = sharedSecret else {
            throw .notConfigured("app \(appID) does not use verifyReceipt")
        }
        let answer = try await askVerifyReceipt(receipt, client: client, secret: secret, startingAt: environment == .production ? .production : .sandbox)
        return try verifyReceiptAnswer(answer, receivedAt: now)
    }

    /// Whether receipts can be sent to verifyReceipt (a client and the shared secret).
    public var usesVerifyReceipt: Bool {
        if case .verifyReceipt = receipts, sharedSecret != nil { return true }
        return false
    }

    private func askVerifyReceipt(
        _ receipt: String, client: VerifyReceiptClient, secret: String, startingAt start: VerifyReceiptEndpoint
    ) async throws(EvidenceError) -> VerifyReceiptAnswer {
        do throws(VerifyReceiptClientError) {
            return try await client.verify(receiptData: receipt, password: secret, excludeOldTransactions: false, startingAt: start)
        } catch {
            switch error {
            case .rejected(.receiptNotAuthenticated, _): throw .receiptRejected(error.description)
            case .rejected: throw .upstreamRejected(error.description)
            case .redirectLoop, .retriesExhausted, .cancelled, .requestEncoding: throw .appleUnavailable(error.description)
            }
        }
    }

    private func verifyReceiptAnswer(_ answer: VerifyReceiptAnswer, receivedAt now: Date) throws(EvidenceError) -> Verified {
        let response: VerifyReceiptResponse
        do throws(DecodingError) {
            response = try answer.response()
        } catch {
            throw .appleUnavailable("unreadable verifyReceipt answer: \(error)")
        }
        let bundle = [response.receipt?.bundle_id, response.receipt?.bid].compactMap { $0 }.first { !$0.isEmpty }
        guard bundle == bundleID else { throw .wrongBundleID(expected: bundleID, actual: bundle) }
        let environment = response.environment.map { AppStoreEnvironment(rawValue: $0.rawValue) } ?? answer.environment
        guard accepts(environment) else { throw .wrongEnvironment(accepted: accepted, actual: environment.rawValue) }
        let records: EvidenceRecords
        do throws(NormalizationError) {
            records = try response.evidenceRecords(answeredAt: now, environment: answer.environment)
        } catch {
            throw .invalidEvidence(error.description)
        }
        return Verified(records: records, environment: environment, raw: answer.body, source: .verifyReceipt)
    }

    private func locally(_ parsed: ParsedAppReceipt, der: Data, verifier: AppReceiptVerifier) async throws(EvidenceError) -> Verified {
        let verified: VerifiedAppReceipt
        do throws(ReceiptError) {
            verified = try await verifier.verify(parsed)
        } catch {
            switch error {
            case .malformed, .notSignedData, .missingField: throw .malformedReceipt(error.reason)
            default: throw .invalidSignature(error.description)
            }
        }
        guard verified.receipt.bundleID == bundleID else {
            throw .wrongBundleID(expected: bundleID, actual: verified.receipt.bundleID)
        }
        guard let environment = verified.receipt.receiptType?.environment, accepts(environment) else {
            throw .wrongEnvironment(accepted: accepted, actual: verified.receipt.receiptType?.environment.rawValue)
        }
        let records: EvidenceRecords
        do throws(ReceiptError) {
            records = try verified.evidenceRecords()
        } catch {
            throw .invalidEvidence(error.description)
        }
        return Verified(records: records, environment: environment, raw: der, source: .appReceipt)
    }
}
