import Foundation
import PerennialAppStore
import PerennialCore

/// What the customer sees on a subscription's page in the App Store settings, where they may
/// cancel: the retention message the developer's Get Retention Message endpoint chose, checked as
/// Apple checks it, or the default message when the endpoint is not set, fails, is late or chose
/// something unusable.
public struct RetentionDisplay: Codable, Hashable, Sendable {
    /// `realtime` (the endpoint's choice), `default` or `none`.
    public var source: String
    /// `message`, `alternateProduct`, `promotionalOffer` or `advancedCommerceInfo`; nil when
    /// nothing is shown.
    public var kind: String?
    public var messageIdentifier: String?
    public var header: String?
    /// `ABOVE_IMAGE` when the header is shown above the image; nil for Apple's default, above the body.
    public var headerPosition: String?
    public var body: String?
    public var imageIdentifier: String?
    /// The texts of the message's bulleted list, in order.
    public var bulletPoints: [String]?
    /// The product offered instead, for `alternateProduct`.
    public var productId: String?
    /// The commitment plan offered with `productId`, when the answer named one.
    public var billingPlanType: String?
    /// The promotional offer, for `promotionalOffer`.
    public var offerIdentifier: String?
    /// Why the endpoint's answer was not shown, when it was not.
    public var realtimeFailure: String?
}

extension AppStoreSimulator {
    /// The customer of `accountID` opens the page of subscription `originalTransactionID` in
    /// `locale`: the App Store asks the developer's endpoint (within `timeout`) and shows its choice
    /// or the default message.
    ///
    /// - Throws: ``SimulatorRuntimeError`` for an unknown account or a subscription not theirs.
    public func viewSubscriptionPage(
        accountID: String, originalTransactionID: String, locale: String = "en-US", timeout: Duration = .seconds(2)
    ) async throws(SimulatorRuntimeError) -> RetentionDisplay {
        let account = try await caughtUpAccount(accountID)
        guard let lifecycle = state.lifecycle(originalTransactionID: originalTransactionID), lifecycle.account.id == account.id,
            lifecycle.isAutoRenewable
        else {
            throw .invalidRequest("'\(accountID)' has no subscription \(originalTransactionID)")
        }
        let productID = lifecycle.latestTransaction.productID
        var failure: String?
        if let url = await retentionMessaging.realtimeURL {
            let call = RealtimeMessagingCall(pki: pki, environment: setup.environment, appAppleID: setup.wire.appAppleID, timeout: timeout)
            let outcome = await call.call(url, originalTransactionID: originalTransactionID, productID: productID, locale: locale, now: now)
            switch outcome.answer {
            case .success(let answer):
                do throws(DisplayRefusal) {
                    if let shown = try await display(answer, lifecycle: lifecycle) { return shown }
                } catch {
                    failure = error.reason
                }
            case .failure(let error):
                failure = error.description
            }
        }
        guard let message = await retentionMessaging.defaultMessage(productID: productID, locale: locale) else {
            return RetentionDisplay(source: "none", realtimeFailure: failure)
        }
        var shown = Self.display(message, kind: "message", source: "default")
        shown.realtimeFailure = failure
        return shown
    }

    private struct DisplayRefusal: Error {
        let reason: String
    }

    /// What the endpoint's answer shows; nil when it chose nothing (the default message then).
    private func display(_ answer: RealtimeResponseBody, lifecycle: SubscriptionLifecycle) async throws(DisplayRefusal) -> RetentionDisplay? {
        let chosen = [answer.message != nil, answer.alternateProduct != nil, answer.promotionalOffer != nil, answer.advancedCommerceInfo != nil]
            .filter { $0 }.count
        guard chosen <= 1 else {
            throw DisplayRefusal(reason: "the answer holds more than one of message, alternateProduct, promotionalOffer and advancedCommerceInfo")
        }
        if let choice = answer.message {
            let message = try await approvedMessage(choice.messageIdentifier, imageAllowed: true)
            return Self.display(message, kind: "message", source: "realtime")
        }
        if let choice = answer.alternateProduct {
            let message = try await approvedMessage(choice.messageIdentifier, imageAllowed: false)
            let current = state.configuration.catalog.product(id: lifecycle.latestTransaction.productID)
            guard let other = state.configuration.catalog.product(id: choice.productId), other.id != current?.id,
                other.subscriptionGroupID == current?.subscriptionGroupID
            else {
                throw DisplayRefusal(reason: "alternate product \(choice.productId) is not another product of the subscription's group")
            }
            if let plan = choice.billingPlanType, !BillingPlanType.documented.contains(plan) {
                throw DisplayRefusal(reason: "billingPlanType \(plan) is not BILLED_UPFRONT or MONTHLY")
            }
            var shown = Self.display(message, kind: "alternateProduct", source: "realtime")
            shown.productId = other.id
            shown.billingPlanType = choice.billingPlanType?.rawValue
            return shown
        }
        if let choice = answer.promotionalOffer {
            let message = try await approvedMessage(choice.messageIdentifier, imageAllowed: false)
            let offerID = try Self.offerIdentifier(of: choice.promotionalOfferSignatureV2, boundTo: lifecycle.originalTransactionID)
            do throws(SimulatorRuntimeError) {
                _ = try offerVerifier.check(
                    DeviceOffer(type: .promotional, id: offerID, compactJWS: choice.promotionalOfferSignatureV2),
                    productID: lifecycle.latestTransaction.productID, appAccountToken: nil,
                    customerTransactionIDs: [lifecycle.originalTransactionID], now: now)
            } catch {
                throw DisplayRefusal(reason: error.description)
            }
            var shown = Self.display(message, kind: "promotionalOffer", source: "realtime")
            shown.offerIdentifier = offerID
            return shown
        }
        if let choice = answer.advancedCommerceInfo {
            let message = try await approvedMessage(choice.messageIdentifier, imageAllowed: false)
            // Only the Advanced Commerce API reads the signed request inside.
            guard choice.hasEncodedData else {
                throw DisplayRefusal(reason: "advancedCommerceData is not Base64-encoded data")
            }
            return Self.display(message, kind: "advancedCommerceInfo", source: "realtime")
        }
        return nil
    }

    private func approvedMessage(_ identifier: String, imageAllowed: Bool) async throws(DisplayRefusal) -> RetentionMessaging.Message {
        guard let message = await retentionMessaging.message(identifier), message.state == "APPROVED" else {
            throw DisplayRefusal(reason: "message \(identifier) is not an approved message")
        }
        guard imageAllowed || message.content.imageIdentifiers.isEmpty else {
            throw DisplayRefusal(reason: "message \(identifier) has an image or bullet points, which only a text-based message may have")
        }
        return message
    }

    /// The offer a `promotionalOfferSignatureV2` names; Apple requires it bound to the subscription.
    private static func offerIdentifier(of signature: String, boundTo originalTransactionID: String) throws(DisplayRefusal) -> String {
        struct Claims: Decodable {
            let offerIdentifier: String
            let transactionId: String?
        }
        guard let payload = try? JWSDecoding.unverifiedPayload(of: signature), let claims = try? JSONDecoder().decode(Claims.self, from: payload) else {
            throw DisplayRefusal(reason: "promotionalOfferSignatureV2 is not a promotional offer JWS")
        }
        guard claims.transactionId == originalTransactionID else {
            throw DisplayRefusal(reason: "promotionalOfferSignatureV2 must name the subscription's originalTransactionId as its transactionId")
        }
        return claims.offerIdentifier
    }

    private static func display(_ message: RetentionMessaging.Message, kind: String, source: String) -> RetentionDisplay {
        RetentionDisplay(
            source: source, kind: kind, messageIdentifier: message.identifier, header: message.content.header,
            headerPosition: message.content.headerPosition, body: message.content.body, imageIdentifier: message.content.image?.imageIdentifier,
            bulletPoints: message.content.bulletPoints?.map(\.text))
    }
}
