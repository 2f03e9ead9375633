import Foundation
public import PerennialAppStore
public import PerennialCore

/// The simulated verifyReceipt endpoint: what Apple answers to a POSTed app receipt, given the
/// store as it stands, as a pure function (the HTTP layer only decodes and encodes).
///
/// It checks what Apple checks, in Apple's order: the receipt parses (else 21002) and its
/// signature chains to the simulator's receipt root (else 21003); it belongs to this endpoint's
/// environment (else 21007 / 21008); the shared secret matches when it holds auto-renewables
/// (else 21004). A valid receipt gets status 0 with the store's current view of the account.
public struct VerifyReceiptResponder: Sendable {
    /// Which endpoint this is and the app facts it knows.
    public struct Configuration: Hashable, Sendable {
        /// The environment this endpoint plays: production (`buy.itunes.apple.com`) or sandbox.
        public var environment: AppStoreEnvironment
        /// The app's shared secret (`sharedSecret`, required as `password` for auto-renewables;
        /// when nil no password matches), its Apple id and bundle version for `latest_receipt`.
        public var app: WireConfiguration

        /// A configuration.
        public init(environment: AppStoreEnvironment, app: WireConfiguration) {
            self.environment = environment
            self.app = app
        }
    }

    /// The endpoint and app this responder answers for.
    public var configuration: Configuration
    /// When set, every request gets this failure instead of an answer.
    public var failure: InjectedVerifyReceiptFailure?

    /// A responder answering normally unless `failure` is set.
    public init(configuration: Configuration, failure: InjectedVerifyReceiptFailure? = nil) {
        self.configuration = configuration
        self.failure = failure
    }

    /// Apple's answer to `request` with the store in `state`.
    ///
    /// - Throws: ``SimulatorWireError/noReceiptAuthority`` when `pki` cannot sign receipts,
    ///   ``SimulatorWireError/signing(_:)`` when `latest_receipt` cannot be signed; those are
    ///   simulator faults, never an answer Apple would give.
    public func respond(
        to request: VerifyReceiptRequest, state: SimulatorState, pki: SimulatorPKI
    ) async throws(SimulatorWireError) -> SimulatedVerifyReceiptReply {
        let environment = AppleEnvironment(simulated: configuration.environment)
        if let failure { return failure.reply(environment: environment) }
        guard let authority = pki.receipts else { throw .noReceiptAuthority }
        if case .transactionReceipt(let receipt)? = try? ReceiptDocument.decode(Array(request.receipt_data.utf8)) {
            return try iOS6Answer(receipt, request: request, state: state, pki: pki, authority: authority)
        }

        let posted: AppReceipt
        do throws(ReceiptError) {
            posted = try await AppReceiptVerifier(trustedRoots: [authority.root]).verify(bytes: Data(request.receipt_data.utf8)).receipt
        } catch {
            return .json(VerifyReceiptResponse(status: Self.status(for: error), environment: environment))
        }
        if let redirect = redirect(for: posted) {
            return .json(VerifyReceiptResponse(status: redirect, environment: environment))
        }
        if posted.inAppPurchases.contains(where: { $0.expiresDate != nil }),
            request.password == nil || request.password != configuration.app.sharedSecret
        {
            return .json(VerifyReceiptResponse(status: .sharedSecretMismatch, environment: environment))
        }

        var response = VerifyReceiptResponse(
            status: .valid, environment: environment, receipt: LegacyReceipt(decoded: posted, requestDate: state.now))
        let account = posted.inAppPurchases.lazy.compactMap(\.originalTransactionID)
            .compactMap { state.lifecycle(originalTransactionID: $0)?.account }.first
        guard let account, let bundleID = posted.bundleID else { return .json(response) }
        let lifecycles = DeviceReceipt.lifecycles(of: account, bundleID: bundleID, in: state)
        // Apple adds the latest_* keys only for receipts with auto-renewables.
        guard lifecycles.contains(where: \.isAutoRenewable) else { return .json(response) }

        let latest = try DeviceReceipt(account: account, bundleID: bundleID, state: state, pki: pki, configuration: configuration.app)
        let rows = request.exclude_old_transactions == true ? lifecycles.map(\.latestTransaction) : lifecycles.flatMap(\.transactions)
        response.latest_receipt = latest.base64
        response.latest_receipt_info = .many(rows.map(LegacyPayloadEncoder.receiptRow))
        response.pending_renewal_info = lifecycles.compactMap(\.renewalInfo).map(LegacyPayloadEncoder.pendingRenewalInfo)
        return .json(response)
    }

    /// Apple's answer to an iOS 6 transaction receipt: the `receipt` object is its purchase info,
    /// `latest_receipt_info` (a single object) the subscription's newest period with a fresh
    /// `latest_receipt`, and the renewal facts at the top level; an expired subscription answers
    /// 21006 with `latest_expired_receipt_info` instead.
    private func iOS6Answer(
        _ receipt: TransactionReceipt, request: VerifyReceiptRequest, state: SimulatorState, pki: SimulatorPKI, authority: ReceiptSigningAuthority
    ) throws(SimulatorWireError) -> SimulatedVerifyReceiptReply {
        let environment = AppleEnvironment(simulated: configuration.environment)
        do throws(ReceiptError) {
            try receipt.verifySignature(signer: authority.signer)
        } catch {
            return .json(VerifyReceiptResponse(status: .notAuthenticated, environment: environment))
        }
        switch (configuration.environment == .production, receipt.appStoreEnvironment == .production) {
        case (true, false): return .json(VerifyReceiptResponse(status: .sandboxReceiptOnProduction, environment: environment))
        case (false, true): return .json(VerifyReceiptResponse(status: .productionReceiptOnSandbox, environment: environment))
        default: break
        }
        var response = VerifyReceiptResponse(
            status: .valid, environment: environment,
            receipt: try TransactionReceiptAuthoring.answerObject(receipt.purchaseInfo.fields, as: LegacyReceipt.self))
        guard let original = receipt.purchaseInfo.originalTransactionID, let lifecycle = state.lifecycle(originalTransactionID: original),
            lifecycle.isAutoRenewable
        else { return .json(response) }
        guard request.password != nil, request.password == configuration.app.sharedSecret else {
            return .json(VerifyReceiptResponse(status: .sharedSecretMismatch, environment: environment))
        }
        let latest = lifecycle.latestTransaction
        let row = try TransactionReceiptAuthoring.answerObject(
            TransactionReceiptAuthoring.purchaseInfo(latest, configuration: configuration.app), as: LegacyInAppTransaction.self)
        response.latest_receipt = try TransactionReceiptAuthoring.receipt(of: latest, pki: pki, configuration: configuration.app)
        if lifecycle.grantsAccess {
            response.latest_receipt_info = .one(row)
        } else {
            response.status = .subscriptionExpired
            response.latest_expired_receipt_info = row
        }
        if let renewal = lifecycle.renewalInfo {
            response.auto_renew_status = renewal.autoRenewStatus ? .on : .off
            response.auto_renew_product_id = renewal.autoRenewProductID
        }
        return .json(response)
    }

    /// 21007 for a sandbox receipt sent to production, 21008 for a production receipt sent to the
    /// sandbox; nil when the receipt belongs here.
    private func redirect(for receipt: AppReceipt) -> VerifyReceiptStatus? {
        let isProductionReceipt = receipt.receiptType?.environment == .production
        switch (configuration.environment == .production, isProductionReceipt) {
        case (true, false): return .sandboxReceiptOnProduction
        case (false, true): return .productionReceiptOnSandbox
        default: return nil
        }
    }

    /// Bytes that are not a receipt are malformed (21002); a receipt that does not verify could
    /// not be authenticated (21003).
    private static func status(for error: ReceiptError) -> VerifyReceiptStatus {
        switch error {
        case .malformed, .notSignedData, .missingField: .malformedOrTemporaryIssue
        case .unsupportedAlgorithm, .missingSignerCertificate, .untrustedRoot, .invalidChain, .expired, .notYetValid,
            .badSignature, .badDigest:
            .notAuthenticated
        }
    }
}
