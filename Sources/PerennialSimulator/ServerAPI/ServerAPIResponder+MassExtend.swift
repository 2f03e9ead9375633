import Foundation
import PerennialAppStore
import PerennialCore

/// Extend Subscription Renewal Dates for All Active Subscribers
/// (`POST /inApps/v1/subscriptions/extend/mass`) and Get Status of Subscription Renewal Date
/// Extensions (`GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`).
extension ServerAPIResponder {
    /// Validates the body as Apple does, then extends every eligible subscriber through the
    /// lifecycle (each extension notifies `RENEWAL_EXTENDED`). Apple works through the request
    /// asynchronously; the simulator completes it before answering, so the status endpoint
    /// reports it complete at once. Answers `{"requestIdentifier"}`.
    func massExtendRenewalDate(request: ServerAPIRequest, backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let body = try decodeBody(MassExtendRenewalDateRequest.self, from: request)
        guard let days = body.extendByDays, (1...90).contains(days) else {
            throw .badRequest(.invalidExtendByDays, "Invalid request. The extend-by-days value is invalid.")
        }
        guard let code = body.extendReasonCode, let reason = RenewalExtensionReason(rawValue: code.rawValue) else {
            throw .badRequest(.invalidExtendReasonCode, "Invalid request. The extend reason code is invalid.")
        }
        guard let requestIdentifier = body.requestIdentifier, Self.isValidRequestIdentifier(requestIdentifier) else {
            throw .badRequest(.invalidRequestIdentifier, "Invalid request. The request identifier is invalid.")
        }
        let storefronts = try Self.storefronts(body.storefrontCountryCodes)
        let state = await backend.currentState()
        guard let productID = body.productId, Self.isSubscription(productID, of: bundleID, in: state) else {
            throw .badRequest(.invalidProductId, "Invalid request. The product id is invalid.")
        }
        do {
            _ = try await backend.perform(
                .massExtendRenewalDates(
                    productID: productID, days: days, reason: reason, requestIdentifier: requestIdentifier,
                    storefrontCountryCodes: storefronts))
        } catch {
            throw .internalError(error.description)
        }
        return .json(MassExtendRenewalDateResponse(requestIdentifier: requestIdentifier))
    }

    /// The outcome of one mass extension; 4040009 when this product has no such request.
    func massExtensionStatus(
        productID: String, requestIdentifier: String, backend: any SimulatorBackend
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        guard Self.isValidRequestIdentifier(requestIdentifier) else {
            throw .badRequest(.invalidRequestIdentifier, "Invalid request. The request identifier is invalid.")
        }
        let state = await backend.currentState()
        guard Self.isSubscription(productID, of: bundleID, in: state) else {
            throw .badRequest(.invalidProductId, "Invalid request. The product id is invalid.")
        }
        guard let found = state.massRenewalExtension(productID: productID, requestIdentifier: requestIdentifier) else {
            throw .notFound(.statusRequestNotFound, "The server didn't find a subscription-renewal-date extension request for this identifier and product.")
        }
        return .json(
            MassExtendRenewalDateStatusResponse(
                requestIdentifier: found.requestIdentifier, complete: true, completeDate: found.completeDate.wholeMilliseconds,
                succeededCount: Int64(found.succeededCount), failedCount: Int64(found.failedCount)))
    }

    /// Apple's limit: a non-empty identifier of at most 128 characters.
    static func isValidRequestIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.count <= 128
    }

    /// An auto-renewable subscription product of the app.
    static func isSubscription(_ productID: String, of bundleID: String, in state: SimulatorState) -> Bool {
        guard let product = state.configuration.catalog.product(id: productID) else { return false }
        return product.type == .autoRenewable && product.bundleID == bundleID
    }

    /// The storefront filter: absent means all storefronts; an empty list (4000027) or a code that
    /// is not ISO 3166-1 alpha-3 (4000028) is refused.
    static func storefronts(_ codes: [String]?) throws(ServerAPIFailure) -> [String]? {
        guard let codes else { return nil }
        guard !codes.isEmpty else {
            throw .badRequest(.invalidEmptyStorefrontCountryCodeList, "Invalid request. The storefront country code list is empty.")
        }
        for code in codes where code.count != 3 || !code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) {
            throw .badRequest(.invalidStorefrontCountryCode, "Invalid request. The storefront country code \(code) is invalid.")
        }
        return codes
    }
}
