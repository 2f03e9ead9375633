public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
#if os(iOS) || os(visionOS)
public import UIKit
#elseif os(Linux)
public import StoreKitInterface
#endif

/// A ``StoreBackend`` that plays a device signed in with one sandbox account of
/// `PerennialSimulator`, over the simulator's device API (`/simulator/v1`).
///
/// It lets the whole SDK run on Linux and in an app's CI against a store that signs real JWS
/// transactions, renews on an accelerated clock and supports Ask to Buy. The simulator has no
/// product endpoint, so ``products(for:)`` answers from the catalog given at init (or bare products
/// carrying only their ids when none was given). Its transactions count as verified by the store
/// (``StoreTransaction/isVerified``), as StoreKit's `.verified` ones do: the simulator plays
/// StoreKit's part on the device and hands out only transactions it signed itself.
public actor SimulatorStore: StoreBackend {
    private let http: JSONHTTPClient
    /// The sandbox account this device is signed in with (create it with ``SimulatorControl``).
    public nonisolated let accountID: String
    private let catalog: [StoreProduct]
    private let pollInterval: Duration
    /// How the next payment sheets behave.
    public private(set) var purchaseMode: SimulatorPurchaseMode = .pay
    /// Ask to Buy ids of the purchases that went pending, oldest first.
    public private(set) var pendingIDs: [String] = []

    /// A store for `accountID` on the simulator at `baseURL` (its root; `/simulator/v1` is
    /// appended), polling for unfinished transactions every `pollInterval` while someone listens.
    public init(
        baseURL: URL, accountID: String, products: [StoreProduct] = [], pollInterval: Duration = .seconds(1),
        acceptsJWSPromotionalOffers: Bool = true, session: URLSession = .shared
    ) {
        self.acceptsJWSPromotionalOffers = acceptsJWSPromotionalOffers
        self.http = JSONHTTPClient(baseURL: baseURL, session: session)
        self.accountID = accountID
        self.catalog = products
        self.pollInterval = pollInterval
    }

    /// Changes how the next payment sheets behave.
    public func setPurchaseMode(_ mode: SimulatorPurchaseMode) {
        purchaseMode = mode
    }

    /// The simulator's sandbox accounts may always pay.
    public func canMakePayments() async -> Bool { true }

    /// Whether this "device" passes promotional offers in the JWS form (a newer StoreKit) or the
    /// legacy one; the simulator checks either as StoreKit would.
    public nonisolated let acceptsJWSPromotionalOffers: Bool
    /// The simulator applies Apple's own eligibility rule; it takes no verdict from the server.
    public nonisolated var acceptsIntroEligibility: Bool { false }

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        guard !catalog.isEmpty else { return ids.map { StoreProduct(id: $0) } }
        return catalog.filter { ids.contains($0.id) }
    }

    public func purchase(productID: String, appAccountToken: UUID?, offer: StoreOffer?) async throws(StoreError) -> StorePurchaseResult {
        if purchaseMode == .userCancels { return .userCancelled }
        let request = SimulatorWire.PurchaseRequest(
            account: accountID, productId: productID, appAccountToken: appAccountToken?.uuidString.lowercased(),
            offer: offer.map { SimulatorWire.Offer($0, acceptsJWS: acceptsJWSPromotionalOffers) }, askToBuy: purchaseMode == .askToBuy)
        let answer: SimulatorWire.PurchaseAnswer
        do {
            answer = try await http.send("POST", ["simulator", "v1", "purchases"], body: request, as: SimulatorWire.PurchaseAnswer.self)
        } catch {
            if case .http(400..<500, _, _) = error { throw .purchaseFailed(UnderlyingError(error)) }
            throw .simulator(error)
        }
        switch answer.status {
        case "purchased":
            guard let signed = answer.signedTransaction else { throw .malformedTransaction("purchased without signedTransaction") }
            return .purchased(try StoreTransaction(signedTransaction: signed, isVerified: true))
        case "pending":
            if let id = answer.pendingId { pendingIDs.append(id) }
            return .pending
        default:
            throw .simulator(.decoding("purchase answered status '\(answer.status)'"))
        }
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        try await Self.signedTransactions(http, ["simulator", "v1", "accounts", accountID, "unfinished"])
    }

    /// Polls `unfinished` and yields each transaction the first time it is seen, like StoreKit's
    /// `Transaction.updates`. Polling stops when the stream's consumer goes away.
    ///
    /// "Seen" is by transaction id (and revocation), not by JWS: the simulator signs afresh on
    /// every poll and ECDSA signatures differ each time, so the bytes never repeat.
    public nonisolated func transactionUpdates() -> AsyncStream<[StoreTransaction]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [StoreTransaction].self)
        let task = Task { [http, accountID, pollInterval] in
            var seen: Set<String> = []
            while !Task.isCancelled {
                if let transactions = try? await Self.signedTransactions(http, ["simulator", "v1", "accounts", accountID, "unfinished"]) {
                    let new = transactions.filter { seen.insert($0.journalKey).inserted }
                    if !new.isEmpty { continuation.yield(new) }
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    public func finish(transactionID: String) async throws(StoreError) {
        do {
            _ = try await http.send(
                "POST", ["simulator", "v1", "accounts", accountID, "transactions", transactionID, "finish"], body: NoBody?.none)
        } catch {
            throw .simulator(error)
        }
    }

    public func currentEntitlements() async throws(StoreError) -> [StoreTransaction] {
        try await Self.signedTransactions(http, ["simulator", "v1", "accounts", accountID, "entitlements"])
    }

    /// The simulator answers `unfinished` and `entitlements` from its own state on every call, so
    /// there is nothing to synchronise: a restore is the entitlements' re-upload the SDK does next.
    public func restore() async throws(StoreError) {}

    /// The simulator writes the account's receipt on every change; refreshing is reading it.
    public func refreshReceipt() async throws(StoreError) -> String {
        let receipt: String?
        do {
            receipt = try await appReceipt()
        } catch {
            throw .receiptRefreshFailed(UnderlyingError(error))
        }
        guard let receipt else { throw .noReceipt }
        return receipt
    }

    /// The simulator has no App Store page to promote a purchase on.
    public nonisolated func purchaseIntents() -> AsyncStream<StoreProduct> {
        AsyncStream { $0.finish() }
    }

    #if os(iOS) || os(visionOS) || os(Linux)
    /// The simulator has no redemption sheet: redeem a code through its purchases with an
    /// `offerCode` offer instead.
    @MainActor
    public func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(StoreError) {
        throw .unsupported("the simulator has no offer-code sheet; purchase with StoreOffer(type: \"offerCode\", id: code)")
    }

    /// The simulator has no sheets: change or cancel the subscription through its control API
    /// (``SimulatorControl``), as a test plays the user doing it in Settings.
    @MainActor
    public func showManageSubscriptions(in scene: UIWindowScene) async throws(StoreError) {
        throw .unsupported("the simulator has no manage-subscriptions sheet; use its control API")
    }

    /// The simulator has no sheets: refund through its control API, as Apple's support would.
    @MainActor
    public func requestRefund(transactionID: String, in scene: UIWindowScene) async throws(StoreError) -> RefundRequestResult {
        throw .unsupported("the simulator has no refund request sheet; refund through its control API")
    }
    #endif

    public func appTransaction() async throws(StoreError) -> String? {
        do {
            return try await http.send(
                "GET", ["simulator", "v1", "accounts", accountID, "app-transaction"], body: NoBody?.none, as: SimulatorWire.AppTransaction.self
            ).signedAppTransaction
        } catch {
            throw .simulator(error)
        }
    }

    public func appReceipt() async throws(StoreError) -> String? {
        do {
            return try await http.send(
                "GET", ["simulator", "v1", "accounts", accountID, "receipt"], body: NoBody?.none, as: SimulatorWire.Receipt.self
            ).receipt
        } catch {
            throw .simulator(error)
        }
    }

    private static func signedTransactions(_ http: JSONHTTPClient, _ path: [String]) async throws(StoreError) -> [StoreTransaction] {
        let answer: SimulatorWire.SignedTransactions
        do {
            answer = try await http.send("GET", path, body: NoBody?.none, as: SimulatorWire.SignedTransactions.self)
        } catch {
            throw .simulator(error)
        }
        var transactions: [StoreTransaction] = []
        for signed in answer.signedTransactions {
            transactions.append(try StoreTransaction(signedTransaction: signed, isVerified: true))
        }
        return transactions
    }
}
