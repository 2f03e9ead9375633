#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// The SDK's entry point: one instance per app, configured at launch and started right away.
///
/// Its promise: a purchase the user paid for always reaches the server and becomes an entitlement,
/// even when the app is killed mid-upload, the network is down, the user switches accounts or a
/// flood of transactions arrives at launch; and entitlements are judged on the server's clock.
/// See docs/client.md for the guarantees in detail.
public actor Perennial {
    /// The configuration it was made with.
    public nonisolated let configuration: PerennialConfiguration
    let store: any StoreBackend
    let server: any ServerAPI
    let cache: SubscriberCache
    /// The last offerings answer, for ``offerings()`` offline.
    let offeringsCache: OfferingsCache
    /// Who the SDK acts for: read for every new transaction, subscriber and restore.
    let identity: AppUserIdentity
    let uploader: TransactionUploader
    let coordinator = PurchaseCoordinator()
    let flow: PurchaseFlow
    private nonisolated let broadcaster = SubscriberBroadcaster()
    private var listener: Task<Void, Never>?
    /// When this instance first answered from the offline fallback without any server answer.
    private var firstFallbackUptime: TimeInterval?

    /// An SDK instance buying from `store` and talking to the configured server over `session`.
    public init(configuration: PerennialConfiguration, store: any StoreBackend, session: URLSession = .shared) {
        let server = URLSessionServerAPI(
            baseURL: configuration.serverURL, publicKey: configuration.publicKey, userToken: configuration.userToken,
            answerSigningKey: configuration.answerSigningKey, session: session)
        self.init(configuration: configuration, store: store, server: server)
    }

    /// An SDK instance talking to the server through `server` (a fake in tests, or an app's own
    /// networking stack).
    public init(configuration: PerennialConfiguration, store: any StoreBackend, server: any ServerAPI) {
        self.configuration = configuration
        self.store = store
        self.server = server
        let identity = AppUserIdentity(configuration: configuration)
        let cache = SubscriberCache(
            persistence: configuration.cacheStore, staleAfter: configuration.staleAfter, clock: configuration.clock,
            broadcaster: broadcaster, verifier: configuration.answerSigningKey.map(AnswerVerifier.init(publicKey:)),
            currentUser: { await identity.current() })
        self.identity = identity
        let uploader = TransactionUploader(
            persistence: configuration.journalStore, server: server, store: store, cache: cache, configuration: configuration)
        self.cache = cache
        self.offeringsCache = OfferingsCache(persistence: configuration.offeringsStore)
        self.uploader = uploader
        self.flow = PurchaseFlow(
            store: store, server: server, uploader: uploader, cache: cache, tokens: AppAccountTokens(server: server),
            log: configuration.log, serverDecidesIntroEligibility: configuration.serverDecidesIntroEligibility)
    }

    /// Subscriber updates: every newer server answer about the signed-in user (after a purchase, a
    /// renewal picked up, an Ask to Buy approval, a refresh), starting with the latest known one
    /// when it is about the user signed in now — after a user switch, the new user's, fetched for
    /// them, never the previous user's. Each access is a new independent stream.
    public nonisolated var subscriberUpdates: AsyncStream<Subscriber> {
        let (listener, stream) = broadcaster.subscribe()
        Task { await self.welcome(listener) }
        return stream
    }

    /// Hands a new listener the latest subscriber once it is known to be about the user signed in
    /// now. A user switch not noticed yet forgets the previous user's answer and fetches the new
    /// user's instead, which reaches every listener.
    private func welcome(_ listener: UUID) async {
        let appUserID = await identity.current()
        if await cache.forgetAnswersNotAbout(appUserID) {
            _ = try? await subscriber()
        } else {
            broadcaster.replayLatest(to: listener, ifAbout: appUserID)
        }
    }

    /// Call once at launch, before anything else. Starts listening to the store's transaction
    /// updates first (Apple requires it, so renewals and purchases made elsewhere are not missed),
    /// finishes what the server acknowledged before the app last died, journals and uploads every
    /// unfinished transaction (renewals made while the app was closed), then refreshes the
    /// subscriber. Calling it again does nothing.
    public func start() async {
        guard listener == nil else { return }
        let updates = store.transactionUpdates()
        listener = Task { [weak self] in
            for await batch in updates {
                guard let self else { return }
                await self.ingest(batch)
            }
        }
        await uploader.enableRetries()
        await uploader.finishAcknowledged()
        await ingestUnfinished()
        await postAppTransactionIfUnknown(try? await subscriber())
    }

    /// Posts the store's app transaction when the server does not know the user's original app
    /// purchase yet (once per launch; a failure waits for the next one).
    private func postAppTransactionIfUnknown(_ known: Subscriber?) async {
        guard let known, known.source == .server, known.originalAppPurchase == nil,
            let signed = try? await store.appTransaction()
        else { return }
        if let answer = try? await server.postAppTransaction(signed, appUserID: known.appUserID) { _ = await cache.accept(answer) }
    }

    /// Stops listening and retrying, and ends the update streams.
    public func stop() async {
        listener?.cancel()
        listener = nil
        await uploader.stop()
        broadcaster.finish()
    }

    /// Whether this device may pay at all (Screen Time, MDM): ask before showing a paywall, and
    /// explain instead of offering buttons that cannot work.
    public func canMakePayments() async -> Bool {
        await store.canMakePayments()
    }

    /// Products for a paywall: the store's localized price, period and offers, plus the server's
    /// judgement of the user's introductory-offer eligibility for those with one (nil when the
    /// server cannot be reached: show the regular price).
    public func products(_ ids: [String]) async throws(PerennialError) -> [StoreProduct] {
        var products: [StoreProduct]
        do {
            products = try await store.products(for: ids)
        } catch {
            throw .store(error)
        }
        let withIntro = products.filter { $0.introductoryOffer != nil }.map(\.id)
        guard !withIntro.isEmpty,
            let eligibility = try? await server.eligibility(productIDs: withIntro, appUserID: identity.current())
        else { return products }
        for index in products.indices { products[index].introEligibility = eligibility[products[index].id] }
        return products
    }

    /// Promoted in-app purchases: a customer who taps one of the app's in-app purchases on the App
    /// Store lands in the app, which must finish the purchase (Apple requires listening from launch).
    /// Each element is the product to buy, with ``purchase(_:options:)`` right away or once the
    /// user is ready; the purchase is then journaled and delivered like any other. Each access is a
    /// new stream.
    public nonisolated var purchaseIntents: AsyncStream<StoreProduct> {
        store.purchaseIntents()
    }

    /// Buys `product` for the current app user. A second call for the same product while one is in
    /// flight returns the first one's result without a second payment.
    public func purchase(_ product: StoreProduct, options: PurchaseOptions = PurchaseOptions()) async -> PurchaseResult {
        let appUserID = await identity.current()
        return await coordinator.purchase(productID: product.id) { [flow] in
            await flow.run(productID: product.id, appUserID: appUserID, options: options)
        }
    }

    /// The current user's subscriber, fresh from the server. When the server cannot be reached: the
    /// last answer for this user while it is fresh; then, when configured, the store's current
    /// entitlements that the store verified on the device (``Subscriber/Source/storeFallback``) for
    /// at most the fallback limit; then the last answer however old (``Subscriber/isStale``).
    ///
    /// Call it when the app's user changes (sign in, sign out): what the SDK kept of the previous
    /// user is forgotten first, and the new user's answer reaches screens listening to
    /// ``subscriberUpdates`` since before the switch.
    public func subscriber() async throws(PerennialError) -> Subscriber {
        let appUserID = await identity.current()
        _ = await cache.forgetAnswersNotAbout(appUserID)
        do {
            return await cache.accept(try await server.subscriber(appUserID: appUserID))
        } catch {
            // A forged or altered answer is worth a warning; being offline is ordinary.
            if case .unverifiedAnswer = error {
                configuration.log.warning("subscriber", "answer refused: \(PerennialError.server(error).code.rawValue)")
            } else {
                configuration.log.info("subscriber", "server not asked: \(PerennialError.server(error).code.rawValue); answering from what the device knows")
            }
            let cached = await cache.current(appUserID: appUserID)
            if let cached, !cached.isStale { return cached }
            if let fallback = await storeFallback(appUserID: appUserID, cached: cached) { return fallback }
            if let cached { return cached }
            throw .server(error)
        }
    }

    /// The offline fallback, or nil when it is off, past its limit, or the store cannot answer. The
    /// time offline is the server-time estimate since the last answer (monotonic, so the device's
    /// date plays no part); without any answer, the monotonic time since this instance first fell
    /// back.
    private func storeFallback(appUserID: String, cached: Subscriber?) async -> Subscriber? {
        let mapping = configuration.offlineEntitlements
        guard !mapping.isEmpty else { return nil }
        let offline: TimeInterval
        if let cached {
            offline = cached.serverNow.timeIntervalSince(cached.lastServerContact)
        } else {
            let uptime = configuration.clock.uptime()
            offline = uptime - (firstFallbackUptime ?? uptime)
            if firstFallbackUptime == nil { firstFallbackUptime = uptime }
        }
        guard offline <= configuration.offlineFallbackLimit, let transactions = try? await store.currentEntitlements() else { return nil }
        let now = cached?.serverNow ?? configuration.clock.now()
        var entitlements: [String: Entitlement] = [:]
        for transaction in transactions {
            guard let productID = transaction.productID else { continue }
            for identifier in mapping[productID] ?? [] {
                if let entitlement = Entitlement(identifier: identifier, storeTransaction: transaction, productID: productID, now: now) {
                    entitlements[identifier] = entitlement
                }
            }
        }
        return Subscriber(
            storeFallbackFor: appUserID, entitlements: entitlements, now: now,
            lastServerContact: cached?.lastServerContact)
    }

    /// The last server answer for the current user judged now, without asking the server.
    public func cachedSubscriber() async -> Subscriber? {
        await cache.current(appUserID: identity.current())
    }

    /// The "Restore Purchases" button: asks the App Store for the account's purchases
    /// (`AppStore.sync` / `restoreCompletedTransactions`, which may ask the user to sign in; a
    /// failure is ``StoreError/restoreFailed(_:)``), then re-sends every transaction that currently
    /// entitles the account for the current app user and answers the subscriber. Pass
    /// `syncWithAppStore: false` to re-send what the device already knows without any prompt
    /// (after signing in to the app).
    public func restorePurchases(syncWithAppStore: Bool = true) async throws(PerennialError) -> Subscriber {
        let appUserID = await identity.current()
        let transactions: [StoreTransaction]
        do {
            if syncWithAppStore { try await store.restore() }
            transactions = try await store.currentEntitlements()
        } catch {
            configuration.log.info("restore", "restore ended: \(PerennialError.store(error).code.rawValue)")
            throw .store(error)
        }
        configuration.log.info("restore", "restoring \(transactions.count) transactions")
        var keys: Set<String> = []
        for transaction in transactions {
            _ = try await uploader.record(transaction, appUserID: appUserID, origin: .restore)
            keys.insert(transaction.journalKey)
        }
        await uploader.deliverDue(urgent: keys)
        return try await subscriber()
    }

    /// Asks the App Store for a fresh app receipt and uploads it (apps on StoreKit 1, or a server
    /// that reads the receipt). Distinct from ``restorePurchases(syncWithAppStore:)``: it replays no
    /// transaction, and its failure is ``StoreError/receiptRefreshFailed(_:)``.
    public func refreshReceipt() async throws(PerennialError) -> Subscriber {
        let appUserID = await identity.current()
        let receipt: String
        do {
            receipt = try await store.refreshReceipt()
        } catch {
            throw .store(error)
        }
        do {
            return await cache.accept(try await server.postReceipt(receipt, appUserID: appUserID))
        } catch {
            throw .server(error)
        }
    }

    /// Introductory-offer eligibility per product, as the server judges it for the current user.
    public func checkIntroEligibility(_ productIDs: [String]) async throws(PerennialError) -> [String: IntroEligibility] {
        do {
            return try await server.eligibility(productIDs: productIDs, appUserID: identity.current())
        } catch {
            throw .server(error)
        }
    }

    /// Uploads now every journaled transaction, waiting backoffs or not (a "retry" button, or the
    /// app learning that the network is back). Answers how many remain undelivered.
    @discardableResult
    public func syncPendingTransactions() async -> Int {
        // `urgent` with every key: the caller asked for an attempt now, whatever the backoff says.
        await uploader.deliverDue(urgent: await uploader.pendingKeys())
        // Then whatever the store still holds (including what a full journal refused before).
        await ingestUnfinished()
        return await uploader.undeliveredCount
    }

    /// How many paid transactions the server has not acknowledged yet.
    public func pendingTransactionCount() async -> Int {
        await uploader.undeliveredCount
    }

    /// Journals the store's unfinished transactions and uploads them.
    private func ingestUnfinished() async {
        guard let unfinished = try? await store.unfinishedTransactions() else { return }
        await ingest(unfinished)
    }

    /// Journals transactions the store handed over (attributed to the current user) and uploads.
    /// A journal that refused some for lack of room asks the store again once uploads made room.
    private func ingest(_ transactions: [StoreTransaction]) async {
        let appUserID = await identity.current()
        for transaction in transactions {
            // A failed write leaves the transaction unfinished in the store: it comes back later.
            _ = try? await uploader.record(transaction, appUserID: appUserID, origin: .storeUpdate)
        }
        await uploader.deliverDue()
        if await uploader.takeRoomAfterRefusal() { await ingestUnfinished() }
    }
}
