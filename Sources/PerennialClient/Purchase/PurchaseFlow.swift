/// One purchase from tap to entitlement: token, payment, journal, upload, answer.
///
/// The order is the SDK's promise: the paid transaction is written to the journal before anything
/// else happens to it, the store is told to finish it only after the server acknowledged it, and a
/// failed upload leaves it journaled for retries (``PerennialError/notYetDelivered(transactionID:reason:)``).
struct PurchaseFlow: Sendable {
    let store: any StoreBackend
    let server: any ServerAPI
    let uploader: TransactionUploader
    let cache: SubscriberCache
    let tokens: AppAccountTokens
    let log: PerennialLog
    /// ``PerennialConfiguration/serverDecidesIntroEligibility``.
    let serverDecidesIntroEligibility: Bool

    /// The app account token is required only by a promotional offer's legacy signature, which
    /// covers it: StoreKit refuses the signature on a purchase without the token, so such a
    /// purchase fails before the payment sheet. Any other purchase goes ahead without a token the
    /// server could not give: the upload's path names the buyer, so attribution does not depend on
    /// it, and a user ready to pay is not turned away for it.
    func run(productID: String, appUserID: String, options: PurchaseOptions) async -> PurchaseResult {
        log.info("purchase", "purchase of \(productID) started")
        let result = await pay(productID: productID, appUserID: appUserID, options: options)
        log.info("purchase", "purchase of \(productID): \(Self.summary(result))")
        return result
    }

    private func pay(productID: String, appUserID: String, options: PurchaseOptions) async -> PurchaseResult {
        let token = await tokens.token(for: appUserID)
        var offer = options.offer
        if let offerID = options.winBackOfferID { offer = StoreOffer(type: "winBack", id: offerID) }
        if let offerID = options.promotionalOfferID {
            let signature: SignedOffer
            do {
                signature = try await server.signOffer(productID: productID, offerID: offerID, appUserID: appUserID)
            } catch {
                return .failed(.server(error))
            }
            if case .legacy = signature.form(storeAcceptsJWS: store.acceptsJWSPromotionalOffers), case .failure(let reason) = token {
                return .failed(.appAccountTokenUnavailable(reason))
            }
            offer = StoreOffer(type: "promotional", id: offerID, signature: signature)
        }
        if offer == nil, serverDecidesIntroEligibility, store.acceptsIntroEligibility {
            offer = await introEligibility(productID: productID, appUserID: appUserID)
        }
        let result: StorePurchaseResult
        do {
            result = try await store.purchase(productID: productID, appAccountToken: try? token.get(), offer: offer)
        } catch .userCancelled {
            return .userCancelled
        } catch {
            return .failed(.store(error))
        }
        switch result {
        case .userCancelled:
            return .userCancelled
        case .pending:
            return .pending
        case .purchased(let transaction):
            return await deliver(transaction, appUserID: appUserID)
        }
    }

    /// The server's signed verdict on the product's introductory offer, as the purchase's offer;
    /// nil (Apple's own rule applies) when the server cannot give one: a user ready to pay is not
    /// turned away for it.
    private func introEligibility(productID: String, appUserID: String) async -> StoreOffer? {
        do {
            let verdict = try await server.signIntroEligibility(productID: productID, appUserID: appUserID)
            guard let jws = verdict.compactJWS else { return nil }
            log.info("purchase", "introductory offer of \(productID): \(verdict.eligibility.rawValue) by the server")
            return StoreOffer(type: "introEligibility", eligibilityJWS: jws)
        } catch {
            log.warning("purchase", "no introductory-offer verdict for \(productID) from the server (\(PerennialError.server(error).code.rawValue)); Apple's rule applies")
            return nil
        }
    }

    /// What a purchase ended as, for the log: the outcome and, for a failure, its stable code.
    static func summary(_ result: PurchaseResult) -> String {
        switch result {
        case .success: "delivered"
        case .userCancelled: "cancelled by the user"
        case .pending: "pending approval"
        case .failed(let error): "failed (\(error.code.rawValue))"
        }
    }

    /// Journals a paid transaction, uploads it and finishes it once the server acknowledged it:
    /// the path of every purchase, whether the SDK showed the payment sheet or StoreKit's views did.
    func deliver(_ transaction: StoreTransaction, appUserID: String) async -> PurchaseResult {
        let outcome: UploadOutcome
        do {
            outcome = try await uploader.recordAndDeliver(transaction, appUserID: appUserID)
        } catch {
            return .failed(error)
        }
        switch outcome {
        case .delivered(let subscriber):
            return .success(subscriber)
        case .failed(let reason):
            return .failed(.notYetDelivered(transactionID: transaction.transactionID, reason: reason))
        case .alreadyDelivered:
            do {
                return .success(await cache.accept(try await server.subscriber(appUserID: appUserID)))
            } catch {
                if let cached = await cache.current(appUserID: appUserID) { return .success(cached) }
                return .failed(.server(error))
            }
        }
    }
}
