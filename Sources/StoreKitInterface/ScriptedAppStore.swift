public import Crypto
public import Foundation

/// Linux-only test scaffolding: the App Store behind this target's StoreKit API, scripted by tests.
///
/// StoreKit's entry points are static (`Product.products(for:)`, `Transaction.updates`,
/// `SKPaymentQueue.default()`), so they answer from the store bound to the current task with
/// ``run(_:)``; tasks the code under test starts inherit it. Everything is in memory but the app
/// receipt, a file at ``receiptURL`` (Foundation's `Bundle.main.appStoreReceiptURL` is always nil
/// on Linux, so the adapters take the receipt's location at init).
public final class ScriptedAppStore: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every stored var is only touched under `lock`,
    // and observers and delegates are called with the lock released.
    private let lock = NSLock()

    @TaskLocal static var bound: ScriptedAppStore?

    static var current: ScriptedAppStore {
        guard let bound else { preconditionFailure("StoreKitInterface: call StoreKit inside ScriptedAppStore.run { … }") }
        return bound
    }

    /// What the next payment sheet does, for both StoreKit 2 purchases and StoreKit 1 payments.
    public enum Sheet: Sendable, Equatable {
        /// The user pays: a purchased transaction, unfinished until the app finishes it.
        case pay
        /// Ask to Buy: pending (StoreKit 1: `.deferred`) until ``approveAskToBuy()`` or ``declineAskToBuy()``.
        case askToBuy
        /// The user closes the sheet.
        case cancel
        /// The purchase is interrupted (the user must first accept new terms or update a payment
        /// method): the app sees a failure (StoreKit 2 throws `StoreKitError.unknown`, StoreKit 1
        /// fails the payment), and once ``completeInterruptedPurchase()`` plays the user finishing
        /// the action outside the app, the paid transaction arrives through `Transaction.updates`
        /// (StoreKit 1: the observer).
        case interrupted
        /// The store fails the payment with this StoreKit 1 code (StoreKit 2 throws
        /// `StoreKitError.userCancelled` for `.paymentCancelled`, else `Product.PurchaseError.productUnavailable`).
        case fail(SKError.Code)
    }

    /// The StoreKit 1 queue of this store.
    public private(set) var paymentQueue: SKPaymentQueue!
    /// The app receipt's file.
    public let receiptURL: URL

    private var sheets: [Sheet] = []
    private var allowsPayments = true
    private var storeProducts: [String: Product] = [:]
    private var skProducts: [String: SKProduct] = [:]
    private var productsFailure: (any Error)?
    private var purchaseLog: [(productID: String, options: Set<Product.PurchaseOption>)] = []
    private var nextID: UInt64 = 1_000
    private var transactions: [UInt64: Transaction] = [:]
    private var unfinishedIDs: [UInt64] = []
    private var finishCounts: [UInt64: Int] = [:]
    private var updateListeners: [UUID: AsyncStream<VerificationResult<Transaction>>.Continuation] = [:]
    private var pendingAskToBuy: [(productID: String, token: UUID?, legacy: SKPaymentTransaction?)] = []
    private var syncFailure: (any Error)?
    private var syncs = 0
    private var ineligibleGroups: Set<String> = []
    private var observers: [any SKPaymentTransactionObserver] = []
    private var queue: [SKPaymentTransaction] = []
    private var legacyHistory: [SKPaymentTransaction] = []
    private var receiptRefreshFailure: (any Error)?
    private var receiptRefreshes = 0
    private var restoreFailure: (any Error)?
    private var finishGate: @Sendable (String) -> Bool = { _ in true }
    private var verificationFailures: [UInt64: VerificationResult<Transaction>.VerificationError] = [:]
    private var clockNow = Date(timeIntervalSince1970: 1_800_000_000)
    private var interruptedPurchases: [(productID: String, token: UUID?, legacy: SKPayment?)] = []
    private var manageSheets = 0
    private var manageFailure: (any Error)?
    private var refundAnswers: [Result<Transaction.RefundRequestStatus, any Error>] = []
    private var refundLog: [UInt64] = []
    private var offerCodeSheets = 0
    private var intentListeners: [UUID: AsyncStream<PurchaseIntent>.Continuation] = [:]
    private var unheardIntents: [PurchaseIntent] = []
    private var eligibleWinBack: [String: [String]] = [:]
    private var offerSigner: (bundleID: String, keyID: String, key: P256.Signing.PublicKey)?
    private var spentNonces: Set<UUID> = []

    /// An empty store with no receipt yet.
    public init() {
        receiptURL = FileManager.default.temporaryDirectory.appendingPathComponent("scripted-receipt-\(UUID().uuidString)")
        paymentQueue = SKPaymentQueue(appStore: self)
    }

    deinit {
        try? FileManager.default.removeItem(at: receiptURL)
    }

    /// Runs `body` with StoreKit's static entry points answering from this store.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await Self.$bound.withValue(self) { try await body() }
    }

    // MARK: Scripting

    public func sell(_ products: [Product]) { lock.withLock { for product in products { storeProducts[product.id] = product } } }
    public func sell(_ products: [SKProduct]) { lock.withLock { for product in products { skProducts[product.productIdentifier] = product } } }
    public func failProductRequests(with error: (any Error)?) { lock.withLock { productsFailure = error } }
    public func setCanMakePayments(_ allowed: Bool) { lock.withLock { allowsPayments = allowed } }
    /// The next payment sheets, in order; when none are left the user pays.
    public func script(_ next: Sheet...) { lock.withLock { sheets.append(contentsOf: next) } }
    public func failSync(with error: (any Error)?) { lock.withLock { syncFailure = error } }
    public func failReceiptRefresh(with error: (any Error)?) { lock.withLock { receiptRefreshFailure = error } }
    public func failRestore(with error: (any Error)?) { lock.withLock { restoreFailure = error } }
    public func setIneligibleForIntroOffer(group: String) { lock.withLock { _ = ineligibleGroups.insert(group) } }
    /// Decides whether a finish reaches the store (false: the app died before it did).
    public func gateFinishes(_ gate: @escaping @Sendable (String) -> Bool) { lock.withLock { finishGate = gate } }
    /// From now on StoreKit hands `transaction` over as `.unverified` (a signature that does not
    /// check out on the device: a tampered or replayed JWS).
    public func failVerification(of transaction: Transaction, with error: VerificationResult<Transaction>.VerificationError = .invalidSignature) {
        lock.withLock { verificationFailures[transaction.id] = error }
    }

    /// The App Store's clock: purchase dates, and expiration dates one subscription period later.
    public var now: Date { lock.withLock { clockNow } }
    /// Moves the App Store's clock (a subscription past its expiration date no longer entitles).
    public func advance(by interval: TimeInterval) { lock.withLock { clockNow += interval } }
    /// The next refund request sheets' outcomes, in order; when none are left the user submits.
    public func answerRefundRequests(_ answers: Result<Transaction.RefundRequestStatus, any Error>...) {
        lock.withLock { refundAnswers.append(contentsOf: answers) }
    }
    public func failManageSubscriptions(with error: (any Error)?) { lock.withLock { manageFailure = error } }
    /// The win-back offers the App Store finds the subscriber of `group` eligible for, best first
    /// (`RenewalInfo.eligibleWinBackOfferIDs`).
    public func setEligibleWinBackOffers(_ ids: [String], group: String) { lock.withLock { eligibleWinBack[group] = ids } }
    /// From now on a promotional offer must be signed, as App Store Connect's key `keyID` signs it
    /// for `bundleID`, by the private key of `publicKey`; otherwise the purchase throws
    /// `Product.PurchaseError.invalidOfferSignature`, as StoreKit does. A nonce is taken once.
    public func verifyOfferSignatures(bundleID: String, keyID: String, publicKey: P256.Signing.PublicKey) {
        lock.withLock { offerSigner = (bundleID, keyID, publicKey) }
    }

    // MARK: Observing

    public var purchases: [(productID: String, options: Set<Product.PurchaseOption>)] { lock.withLock { purchaseLog } }
    public var syncCount: Int { lock.withLock { syncs } }
    public var receiptRefreshCount: Int { lock.withLock { receiptRefreshes } }
    /// How many times StoreKit 2's offer-code sheet (`presentOfferCodeRedeemSheet(in:)`) was shown.
    public var offerCodeSheetCount: Int { lock.withLock { offerCodeSheets } }
    public var manageSubscriptionsSheetCount: Int { lock.withLock { manageSheets } }
    /// The transactions a refund was requested for, in order.
    public var refundRequests: [UInt64] { lock.withLock { refundLog } }
    public var unfinishedCount: Int { lock.withLock { unfinishedIDs.count + queue.count } }
    public var legacyPayments: [SKPayment] { lock.withLock { legacyHistory.map(\.payment) } }
    /// How many times the app finished the transaction with this id (StoreKit 2 or 1).
    public func finishCount(of transactionID: String) -> Int {
        lock.withLock { UInt64(transactionID).flatMap { finishCounts[$0] } ?? 0 }
    }

    // MARK: Events

    /// A transaction made outside the app (a renewal, a purchase on another device, an offer code
    /// redeemed in the App Store): unfinished, and delivered to every `Transaction.updates` listener.
    @discardableResult
    public func deliverUpdate(productID: String, originalID: UInt64? = nil, revoked: Bool = false) -> Transaction {
        let transaction = lock.withLock {
            makeTransaction(productID: productID, token: nil, originalID: originalID, revoked: revoked)
        }
        publish(transaction)
        return transaction
    }

    /// A transaction left unfinished by an earlier launch (not delivered to listeners by itself).
    @discardableResult
    public func leaveUnfinished(productID: String) -> Transaction {
        lock.withLock { makeTransaction(productID: productID, token: nil, originalID: nil, revoked: false) }
    }

    /// The user completes the oldest interrupted purchase outside the app: the paid transaction
    /// arrives through `Transaction.updates` (StoreKit 1: the observer, as `.purchased`).
    public func completeInterruptedPurchase() {
        guard let purchase = lock.withLock({ interruptedPurchases.isEmpty ? nil : interruptedPurchases.removeFirst() }) else { return }
        if let payment = purchase.legacy {
            let purchased = lock.withLock { makeLegacy(.purchased, payment: payment) }
            notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: [purchased]) }
        } else {
            publish(lock.withLock { makeTransaction(productID: purchase.productID, token: purchase.token, originalID: nil, revoked: false) })
        }
    }

    /// The customer taps a promoted in-app purchase on the App Store: every `PurchaseIntent.intents`
    /// listener receives the product, for the app to buy; with none yet (the app is launching),
    /// the first one to listen does.
    public func promote(productID: String) {
        let listeners: [AsyncStream<PurchaseIntent>.Continuation]? = lock.withLock {
            guard let product = storeProducts[productID] else { return nil }
            if intentListeners.isEmpty { unheardIntents.append(PurchaseIntent(product: product)) }
            return Array(intentListeners.values)
        }
        guard let listeners, let product = lock.withLock({ storeProducts[productID] }) else { return }
        for listener in listeners { listener.yield(PurchaseIntent(product: product)) }
    }

    /// The parent approves the oldest Ask to Buy request: StoreKit 2 delivers the transaction
    /// through `Transaction.updates`, StoreKit 1 moves the deferred payment to `.purchased`.
    public func approveAskToBuy() {
        guard let request = lock.withLock({ pendingAskToBuy.isEmpty ? nil : pendingAskToBuy.removeFirst() }) else { return }
        if let legacy = request.legacy {
            let purchased = lock.withLock { makeLegacy(.purchased, payment: legacy.payment) }
            notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: [purchased]) }
        } else {
            publish(lock.withLock { makeTransaction(productID: request.productID, token: request.token, originalID: nil, revoked: false) })
        }
    }

    /// The parent declines the oldest Ask to Buy request: nothing arrives on StoreKit 2; StoreKit 1
    /// fails the deferred payment.
    public func declineAskToBuy() {
        guard let request = lock.withLock({ pendingAskToBuy.isEmpty ? nil : pendingAskToBuy.removeFirst() }) else { return }
        if let legacy = request.legacy {
            let failed = SKPaymentTransaction(scriptedState: .failed, payment: legacy.payment, error: SKError(.paymentNotAllowed))
            notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: [failed]) }
        }
    }

    /// StoreKit 1 at launch: `count` purchased transactions (renewals made while the app was
    /// closed) in the queue, handed to the observers `repeats` times, as the sandbox does.
    @discardableResult
    public func deliverLaunchFlood(count: Int, productID: String, repeats: Int) -> [String] {
        let flood = lock.withLock {
            let payment = SKMutablePayment()
            payment.productIdentifier = productID
            return (0..<count).map { _ in makeLegacy(.purchased, payment: payment) }
        }
        for _ in 0..<repeats { notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: flood) } }
        return flood.compactMap(\.transactionIdentifier)
    }

    // MARK: StoreKit 2, called by the API

    var canMakePayments: Bool { lock.withLock { allowsPayments } }

    func products(for ids: [String]) throws -> [Product] {
        try lock.withLock {
            if let productsFailure { throw productsFailure }
            return ids.compactMap { storeProducts[$0] }
        }
    }

    func purchase(_ product: Product, options: Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult {
        let (sheet, token): (Sheet, UUID?) = try lock.withLock {
            guard allowsPayments else { throw Product.PurchaseError.purchaseNotAllowed }
            purchaseLog.append((product.id, options))
            let token = options.lazy.compactMap { option -> UUID? in
                if case .appAccountToken(let token) = option.kind { return token }
                return nil
            }.first
            try validate(options, for: product, token: token)
            return (sheets.isEmpty ? .pay : sheets.removeFirst(), token)
        }
        switch sheet {
        case .pay:
            return .success(lock.withLock { verification(of: makeTransaction(productID: product.id, token: token, originalID: nil, revoked: false)) })
        case .askToBuy:
            lock.withLock { pendingAskToBuy.append((product.id, token, nil)) }
            return .pending
        case .cancel:
            return .userCancelled
        case .interrupted:
            lock.withLock { interruptedPurchases.append((product.id, token, nil)) }
            throw StoreKitError.unknown
        case .fail(let code):
            // StoreKit 2 mostly answers `.userCancelled`, but may throw the cancellation instead.
            if code == .paymentCancelled { throw StoreKitError.userCancelled }
            throw Product.PurchaseError.productUnavailable
        }
    }

    /// The offers a purchase names must exist on the product, and, once ``verifyOfferSignatures(bundleID:keyID:publicKey:)``
    /// was called, a promotional offer must carry a valid signature, as the App Store checks.
    /// Called with the lock held.
    private func validate(_ options: Set<Product.PurchaseOption>, for product: Product, token: UUID?) throws {
        let subscription = product.subscription
        for option in options {
            switch option.kind {
            case .promotionalOffer(let id, _, _, _, _), .promotionalOfferJWS(let id, _):
                guard subscription?.promotionalOffers.contains(where: { $0.id == id }) == true else {
                    throw Product.PurchaseError.invalidOfferIdentifier
                }
                try checkSignature(of: option, productID: product.id, token: token)
            case .winBackOffer(let id):
                guard subscription?.scriptedWinBackOffers.contains(where: { $0.id == id }) == true else {
                    throw Product.PurchaseError.ineligibleForOffer
                }
            case .introductoryOfferEligibility:
                guard subscription?.introductoryOffer != nil else { throw Product.PurchaseError.ineligibleForOffer }
                try checkSignature(of: option, productID: product.id, token: token)
            case .appAccountToken, .simulatesAskToBuyInSandbox:
                break
            }
        }
    }

    /// Apple's two forms: the legacy ECDSA signature (DER) over the U+2063-joined bundle id, key
    /// id, product, offer, app account token, nonce and timestamp; or an ES256 compact JWS whose
    /// claims name the bundle, product and offer. Called with the lock held.
    private func checkSignature(of option: Product.PurchaseOption, productID: String, token: UUID?) throws {
        guard let signer = offerSigner else { return }
        switch option.kind {
        case .promotionalOffer(let offerID, let keyID, let nonce, let signature, let timestamp):
            let fields = [
                signer.bundleID, keyID, productID, offerID, token?.uuidString.lowercased() ?? "", nonce.uuidString.lowercased(), String(timestamp),
            ]
            guard keyID == signer.keyID, !spentNonces.contains(nonce),
                let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature),
                signer.key.isValidSignature(ecdsa, for: Data(fields.joined(separator: "\u{2063}").utf8))
            else { throw Product.PurchaseError.invalidOfferSignature }
            spentNonces.insert(nonce)
        case .promotionalOfferJWS(let offerID, let compactJWS):
            guard let claims = Self.claims(of: compactJWS, signedBy: signer.key), claims["bid"] as? String == signer.bundleID,
                claims["productId"] as? String == productID, claims["offerIdentifier"] as? String == offerID
            else { throw Product.PurchaseError.invalidOfferSignature }
        case .introductoryOfferEligibility(let compactJWS):
            guard let claims = Self.claims(of: compactJWS, signedBy: signer.key), claims["bid"] as? String == signer.bundleID,
                claims["productId"] as? String == productID, claims["aud"] as? String == "introductory-offer-eligibility",
                claims["allowIntroductoryOffer"] is Bool
            else { throw Product.PurchaseError.invalidOfferSignature }
        case .appAccountToken, .winBackOffer, .simulatesAskToBuyInSandbox:
            break
        }
    }

    /// The claims of an ES256 compact JWS `key` signed; nil for any other.
    private static func claims(of compactJWS: String, signedBy key: P256.Signing.PublicKey) -> [String: Any]? {
        let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = ScriptedJWS.decode(parts[2]),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)),
            let payload = ScriptedJWS.decode(parts[1])
        else { return nil }
        return try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
    }

    func finish(_ id: UInt64) {
        let gate = lock.withLock { finishGate }
        guard gate(String(id)) else { return }
        lock.withLock {
            finishCounts[id, default: 0] += 1
            unfinishedIDs.removeAll { $0 == id }
        }
    }

    /// A new listener first receives the unfinished transactions, as StoreKit does at launch.
    func updatesStream() -> AsyncStream<VerificationResult<Transaction>> {
        let (stream, continuation) = AsyncStream.makeStream(of: VerificationResult<Transaction>.self)
        let id = UUID()
        lock.withLock {
            for unfinished in unfinishedIDs.compactMap({ transactions[$0] }) { continuation.yield(verification(of: unfinished)) }
            updateListeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.updateListeners.removeValue(forKey: id) }
        }
        return stream
    }

    func unfinishedTransactions() -> [VerificationResult<Transaction>] {
        lock.withLock { unfinishedIDs.compactMap { transactions[$0] }.map(verification(of:)) }
    }

    /// The latest unrevoked transaction per product.
    func entitledTransactions() -> [VerificationResult<Transaction>] {
        lock.withLock {
            var latest: [String: Transaction] = [:]
            for transaction in transactions.values.sorted(by: { $0.id < $1.id }) {
                latest[transaction.productID] = transaction.revocationDate == nil ? transaction : nil
            }
            latest = latest.filter { $0.value.expirationDate.map { $0 > clockNow } ?? true }
            return latest.values.sorted { $0.id < $1.id }.map(verification(of:))
        }
    }

    func sync() throws {
        try lock.withLock {
            syncs += 1
            if let syncFailure { throw syncFailure }
        }
    }

    func isEligibleForIntroOffer(group: String) -> Bool {
        lock.withLock { !ineligibleGroups.contains(group) }
    }

    func statuses(group: String) -> [Product.SubscriptionInfo.Status] {
        lock.withLock {
            let inGroup = transactions.values.filter { storeProducts[$0.productID]?.subscription?.subscriptionGroupID == group }
            guard let latest = inGroup.max(by: { $0.id < $1.id }) else { return [] }
            let expired = latest.expirationDate.map { $0 <= clockNow } ?? false
            let renewal = Product.SubscriptionInfo.RenewalInfo(
                originalTransactionID: latest.originalID, currentProductID: latest.productID, willAutoRenew: !expired,
                autoRenewPreference: latest.productID, gracePeriodExpirationDate: nil,
                scriptedEligibleWinBackOfferIDs: expired ? eligibleWinBack[group] ?? [] : [])
            let state: Product.SubscriptionInfo.RenewalState = latest.revocationDate != nil ? .revoked : expired ? .expired : .subscribed
            return [Product.SubscriptionInfo.Status(state: state, transaction: verification(of: latest), renewalInfo: .verified(renewal))]
        }
    }

    func appTransaction() throws -> AppTransaction {
        AppTransaction(originalAppVersion: "1", originalPurchaseDate: Date(timeIntervalSince1970: 1_700_000_000), bundleID: "com.example.app")
    }

    func showManageSubscriptions() throws {
        try lock.withLock {
            manageSheets += 1
            if let manageFailure { throw manageFailure }
        }
    }

    func presentOfferCodeRedeemSheet() throws {
        lock.withLock { offerCodeSheets += 1 }
    }

    func beginRefundRequest(for transactionID: UInt64) throws -> Transaction.RefundRequestStatus {
        try lock.withLock {
            refundLog.append(transactionID)
            return try (refundAnswers.isEmpty ? .success(.success) : refundAnswers.removeFirst()).get()
        }
    }

    func purchaseIntentsStream() -> AsyncStream<PurchaseIntent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PurchaseIntent.self)
        let id = UUID()
        lock.withLock {
            for intent in unheardIntents { continuation.yield(intent) }
            unheardIntents = []
            intentListeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.intentListeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// A transaction bought now: a subscription expires one period later, on the Gregorian
    /// calendar in UTC, as the App Store counts months. Called with the lock held.
    private func makeTransaction(productID: String, token: UUID?, originalID: UInt64?, revoked: Bool) -> Transaction {
        nextID += 1
        let product = storeProducts[productID]
        let type = product?.type ?? .autoRenewable
        let expiration = product?.subscription.flatMap { Self.date(clockNow, plus: $0.subscriptionPeriod) }
        let transaction = Transaction(
            id: nextID, originalID: originalID ?? nextID, productID: productID, productType: type,
            purchaseDate: clockNow, expirationDate: expiration,
            revocationDate: revoked ? Date(timeIntervalSince1970: 1_800_100_000) : nil, appAccountToken: token, appStore: self)
        transactions[transaction.id] = transaction
        unfinishedIDs.append(transaction.id)
        return transaction
    }

    private static func date(_ start: Date, plus period: Product.SubscriptionPeriod) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let component: Calendar.Component =
            switch period.unit {
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            case .year: .year
            }
        return calendar.date(byAdding: component, value: period.value, to: start)
    }

    private func publish(_ transaction: Transaction) {
        let (result, listeners) = lock.withLock { (verification(of: transaction), Array(updateListeners.values)) }
        for listener in listeners { listener.yield(result) }
    }

    /// How StoreKit hands `transaction` over: verified unless a test made its verification fail.
    /// Called with the lock held.
    private func verification(of transaction: Transaction) -> VerificationResult<Transaction> {
        guard let error = verificationFailures[transaction.id] else { return .verified(transaction) }
        return .unverified(transaction, error)
    }

    // MARK: StoreKit 1, called by the API

    func queueTransactions() -> [SKPaymentTransaction] { lock.withLock { queue } }
    func addObserver(_ observer: any SKPaymentTransactionObserver) { lock.withLock { observers.append(observer) } }
    func removeObserver(_ observer: any SKPaymentTransactionObserver) { lock.withLock { observers.removeAll { $0 === observer } } }

    /// The queue reports `.purchasing` while the sheet is up, then the outcome, as StoreKit does.
    func addPayment(_ payment: SKPayment) {
        let purchasing = SKPaymentTransaction(scriptedState: .purchasing, payment: payment)
        notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: [purchasing]) }
        let update: SKPaymentTransaction = lock.withLock {
            let sheet = sheets.isEmpty ? .pay : sheets.removeFirst()
            switch sheet {
            case .pay:
                return makeLegacy(.purchased, payment: payment)
            case .askToBuy:
                let deferred = SKPaymentTransaction(scriptedState: .deferred, payment: payment)
                pendingAskToBuy.append((payment.productIdentifier, nil, deferred))
                return deferred
            case .cancel:
                return SKPaymentTransaction(scriptedState: .failed, payment: payment, error: SKError(.paymentCancelled))
            case .interrupted:
                interruptedPurchases.append((payment.productIdentifier, nil, payment))
                return SKPaymentTransaction(scriptedState: .failed, payment: payment, error: SKError(.unknown))
            case .fail(let code):
                return SKPaymentTransaction(scriptedState: .failed, payment: payment, error: SKError(code))
            }
        }
        notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: [update]) }
    }

    func finishQueueTransaction(_ transaction: SKPaymentTransaction) {
        let gate = lock.withLock { finishGate }
        if let id = transaction.transactionIdentifier, !gate(id) { return }
        lock.withLock {
            queue.removeAll { $0 === transaction || ($0.transactionIdentifier != nil && $0.transactionIdentifier == transaction.transactionIdentifier) }
            if let id = transaction.transactionIdentifier.flatMap(UInt64.init) { finishCounts[id, default: 0] += 1 }
        }
    }

    func restoreCompletedTransactions(applicationUsername: String?) {
        let (failure, restored) = lock.withLock { () -> ((any Error)?, [SKPaymentTransaction]) in
            if let restoreFailure { return (restoreFailure, []) }
            let restored = legacyHistory.map { original in
                nextID += 1
                let restored = SKPaymentTransaction(
                    scriptedState: .restored, payment: original.payment, identifier: String(nextID), original: original, date: Date())
                queue.append(restored)
                return restored
            }
            return (nil, restored)
        }
        if let failure {
            notify { $0.paymentQueue(self.paymentQueue, restoreCompletedTransactionsFailedWithError: failure) }
            return
        }
        if !restored.isEmpty { notify { $0.paymentQueue(self.paymentQueue, updatedTransactions: restored) } }
        notify { $0.paymentQueueRestoreCompletedTransactionsFinished(self.paymentQueue) }
    }

    func refreshReceipt() -> Result<Void, any Error> {
        lock.withLock {
            receiptRefreshes += 1
            if let receiptRefreshFailure { return .failure(receiptRefreshFailure) }
            writeReceipt()
            return .success(())
        }
    }

    func legacyProducts(for ids: Set<String>) -> Result<SKProductsResponse, any Error> {
        lock.withLock {
            if let productsFailure { return .failure(productsFailure) }
            let found = ids.sorted().compactMap { skProducts[$0] }
            return .success(SKProductsResponse(products: found, invalidProductIdentifiers: ids.sorted().filter { skProducts[$0] == nil }))
        }
    }

    /// A purchased StoreKit 1 transaction: in the queue until finished, and in the receipt.
    private func makeLegacy(_ state: SKPaymentTransactionState, payment: SKPayment) -> SKPaymentTransaction {
        nextID += 1
        let transaction = SKPaymentTransaction(scriptedState: state, payment: payment, identifier: String(nextID), date: Date())
        queue.append(transaction)
        legacyHistory.append(transaction)
        writeReceipt()
        return transaction
    }

    /// The receipt lists every StoreKit 1 purchase of the account, like Apple's.
    private func writeReceipt() {
        let ids = legacyHistory.compactMap(\.transactionIdentifier).joined(separator: ",")
        try? Data("scripted-receipt:\(ids)".utf8).write(to: receiptURL)
    }

    private func notify(_ call: (any SKPaymentTransactionObserver) -> Void) {
        for observer in lock.withLock({ observers }) { call(observer) }
    }
}
