import Foundation
import PerennialAppStore
import PerennialCore

/// Send Consumption Information: `PUT /inApps/v2/transactions/consumption/{transactionId}` and the
/// deprecated `PUT /inApps/v1/transactions/consumption/{transactionId}`.
///
/// A valid v2 answer is kept on the transaction's open refund request (``RefundRequest``), where
/// Apple's simulated decision (``LifecycleAction/decideRefundRequest(transactionID:)``) reads its
/// refund preference; the deprecated v1 answer is validated and answered as Apple does.
extension ServerAPIResponder {
    /// The v2 body: `customerConsented` (must be true), `deliveryStatus` and
    /// `sampleContentProvided` are required; `consumptionPercentage` is 0–100000 milli-percent.
    func consumption(transactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let body = try decodeBody(ConsumptionRequest.self, from: request)
        guard body.customerConsented == true else { throw Self.invalid(.invalidCustomerConsented, "customerConsented") }
        guard let delivery = body.deliveryStatus, Self.deliveryStatuses.contains(delivery) else {
            throw Self.invalid(.invalidDeliveryStatus, "deliveryStatus")
        }
        guard body.sampleContentProvided != nil else { throw Self.invalid(.invalidSampleContentProvided, "sampleContentProvided") }
        if let percentage = body.consumptionPercentage, !(0...100_000).contains(percentage) {
            throw .general("The consumptionPercentage value is invalid.")
        }
        if let preference = body.refundPreference, ![.decline, .grantFull, .grantProrated].contains(preference) {
            throw .general("The refundPreference value is invalid.")
        }
        try await requireConsumptionTarget(transactionID, backend: backend)
        do throws(SimulatorRuntimeError) {
            _ = try await backend.perform(.receiveConsumptionInformation(transactionID: transactionID, body))
        } catch {
            throw .internalError(error.description)
        }
        return .empty(status: 202)
    }

    /// The v1 body: every field but `refundPreference` is required, each within Apple's buckets.
    func consumptionV1(transactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        // Apple's v1 body allows `"appAccountToken": ""` when the app has none, which is no UUID.
        guard var object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
            throw .general("The request body is not a JSON object.")
        }
        let token = object.removeValue(forKey: "appAccountToken")
        guard let text = token as? String, text.isEmpty || UUID(uuidString: text) != nil else {
            throw Self.invalid(.invalidAppAccountToken, "appAccountToken")
        }
        if !text.isEmpty { object["appAccountToken"] = text }
        let body = try decodeBody(
            ConsumptionRequestV1.self,
            from: ServerAPIRequest(method: request.method, path: request.path, body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
        guard body.customerConsented == true else { throw Self.invalid(.invalidCustomerConsented, "customerConsented") }
        try Self.require(body.consumptionStatus?.rawValue, in: 0...3, .invalidConsumptionStatus, "consumptionStatus")
        try Self.require(body.platform?.rawValue, in: 0...2, .invalidPlatform, "platform")
        guard body.sampleContentProvided != nil else { throw Self.invalid(.invalidSampleContentProvided, "sampleContentProvided") }
        try Self.require(body.deliveryStatus?.rawValue, in: 0...5, .invalidDeliveryStatus, "deliveryStatus")
        try Self.require(body.accountTenure?.rawValue, in: 0...7, .invalidAccountTenure, "accountTenure")
        try Self.require(body.playTime?.rawValue, in: 0...7, .invalidPlayTime, "playTime")
        try Self.require(body.lifetimeDollarsRefunded?.rawValue, in: 0...7, .invalidLifetimeDollarsRefunded, "lifetimeDollarsRefunded")
        try Self.require(body.lifetimeDollarsPurchased?.rawValue, in: 0...7, .invalidLifetimeDollarsPurchased, "lifetimeDollarsPurchased")
        try Self.require(body.userStatus?.rawValue, in: 0...4, .invalidUserStatus, "userStatus")
        if let preference = body.refundPreference?.rawValue, !(0...3).contains(preference) {
            throw .general("The refundPreference value is invalid.")
        }
        try await requireConsumptionTarget(transactionID, backend: backend)
        return .empty(status: 202)
    }

    /// Apple takes consumption information for consumables and auto-renewable subscriptions only.
    private func requireConsumptionTarget(_ transactionID: String, backend: any SimulatorBackend) async throws(ServerAPIFailure) {
        let transaction = try ServerAPILookup(state: await backend.currentState(), bundleID: bundleID).transaction(transactionID).transaction
        guard transaction.productType == .consumable || transaction.productType == .autoRenewable else {
            throw .badRequest(.invalidTransactionNotConsumable, "Invalid request. The transaction is not a consumable or an auto-renewable subscription.")
        }
    }

    private static let deliveryStatuses: [DeliveryStatus] = [
        .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
    ]

    private static func invalid(_ code: APIErrorCode, _ field: String) -> ServerAPIFailure {
        .badRequest(code, "Invalid request. The \(field) value is missing or invalid.")
    }

    private static func require(_ value: Int?, in range: ClosedRange<Int>, _ code: APIErrorCode, _ field: String) throws(ServerAPIFailure) {
        guard let value, range.contains(value) else { throw invalid(code, field) }
    }
}
