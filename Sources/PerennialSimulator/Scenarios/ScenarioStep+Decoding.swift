public import Foundation
import PerennialAppStore
import PerennialCore

extension ScenarioStep {
    /// Decodes one step from its JSON, as `POST /simulator/v1/actions` receives it; errors name
    /// step 0.
    public static func decode(json: Data) throws(ScenarioDecodingError) -> ScenarioStep {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw .malformedJSON("\(error)")
        }
        return try decode(value, step: 0)
    }

    /// Decodes the step at index `step` of a scenario.
    static func decode(_ value: JSONValue, step: Int) throws(ScenarioDecodingError) -> ScenarioStep {
        guard case .object(let dictionary) = value else { throw .stepNotAnObject(step: step) }
        guard dictionary.count == 1, let entry = dictionary.first else {
            throw .stepKeyCount(step: step, keys: dictionary.keys.sorted())
        }
        let key = entry.key
        let body = entry.value
        guard let kind = Kind(rawValue: key) else { throw .unknownStep(step: step, key: key) }
        do {
            return try kind.decode(body)
        } catch {
            throw .invalidStep(step: step, key: key, reason: error.reason)
        }
    }

    /// Why a step body is invalid, in words naming the field.
    struct BodyError: Error {
        let reason: String
    }

    private enum Kind: String {
        case purchase, advance, setAutoRenew, changeProduct, cancelPendingChange, failBilling, recoverBilling, refund,
            reverseRefund, declineRefund, requestRefund, decideRefundRequest, familyShare, revokeFamily, priceIncrease, consentToPriceIncrease, extendRenewalDate,
            removeFromSale, resubscribe, setAppAccountToken, faults, verifyReceiptFailure, serverAPIFailure, expect

        func decode(_ body: JSONValue) throws(BodyError) -> ScenarioStep {
            if self == .verifyReceiptFailure, body == .null { return .verifyReceiptFailure(nil) }
            if self == .serverAPIFailure, body == .null { return .serverAPIFailure(nil) }
            let fields = try StepFields(body)
            switch self {
            case .purchase:
                return .purchase(
                    ScenarioPurchase(
                        productID: try fields.string("product"), account: try fields.string("account"), offer: try fields.offer("offer"),
                        appAccountToken: try fields.optionalUUID("appAccountToken"), quantity: try fields.optionalInt("quantity") ?? 1,
                        alias: try fields.optionalString("as"), billingPlan: try fields.optionalString("billingPlan").map(BillingPlan.init(rawValue:))))
            case .advance:
                return .advance(try fields.advance())
            case .setAutoRenew:
                return .setAutoRenew(subscription: try fields.string("of"), enabled: try fields.bool("enabled"))
            case .changeProduct:
                return .changeProduct(subscription: try fields.string("of"), productID: try fields.string("product"))
            case .cancelPendingChange:
                return .cancelPendingChange(subscription: try fields.string("of"))
            case .failBilling:
                return .failBilling(subscription: try fields.string("of"), grace: try fields.optionalBool("grace") ?? false)
            case .recoverBilling:
                return .recoverBilling(subscription: try fields.string("of"))
            case .refund:
                return .refund(try fields.transactionReference(), amount: try fields.refundAmount(), reason: try fields.revocationReason())
            case .reverseRefund:
                return .reverseRefund(try fields.transactionReference())
            case .declineRefund:
                return .declineRefund(try fields.transactionReference())
            case .requestRefund:
                return .requestRefund(
                    try fields.transactionReference(), reason: ConsumptionRequestReason(rawValue: try fields.optionalString("reason") ?? "OTHER"))
            case .decideRefundRequest:
                return .decideRefundRequest(try fields.transactionReference())
            case .familyShare:
                return .familyShare(subscription: try fields.string("of"), member: try fields.string("member"), alias: try fields.optionalString("as"))
            case .revokeFamily:
                return .revokeFamily(subscription: try fields.string("of"))
            case .priceIncrease:
                return .priceIncrease(
                    productID: try fields.string("product"), price: try fields.money("price"),
                    requiresConsent: try fields.optionalBool("requiresConsent") ?? true)
            case .consentToPriceIncrease:
                return .consentToPriceIncrease(subscription: try fields.string("of"), accept: try fields.bool("accept"))
            case .extendRenewalDate:
                return .extendRenewalDate(subscription: try fields.string("of"), days: try fields.int("days"), reason: try fields.extensionReason())
            case .removeFromSale:
                return .removeFromSale(productID: try fields.string("product"))
            case .resubscribe:
                return .resubscribe(subscription: try fields.string("of"), productID: try fields.optionalString("product"), offer: try fields.offer("offer"))
            case .setAppAccountToken:
                guard let token = try fields.optionalUUID("appAccountToken") else { throw BodyError(reason: "\"appAccountToken\" is required") }
                return .setAppAccountToken(subscription: try fields.string("of"), appAccountToken: token)
            case .faults:
                return .faults(try fields.faults())
            case .verifyReceiptFailure:
                return .verifyReceiptFailure(try fields.verifyReceiptFailure())
            case .serverAPIFailure:
                return .serverAPIFailure(try fields.serverAPIFailure())
            case .expect:
                return .expect(try fields.expectation())
            }
        }
    }
}

/// The body object of one step, read field by field with errors naming the field.
struct StepFields {
    typealias BodyError = ScenarioStep.BodyError
    let values: [String: JSONValue]

    init(_ body: JSONValue) throws(BodyError) {
        guard case .object(let values) = body else { throw BodyError(reason: "the step's value must be a JSON object") }
        self.values = values
    }

    func isAbsent(_ key: String) -> Bool { values[key] == nil || values[key] == .null }

    func optionalString(_ key: String) throws(BodyError) -> String? {
        guard !isAbsent(key) else { return nil }
        guard case .string(let text)? = values[key], !text.isEmpty else { throw BodyError(reason: "\"\(key)\" must be a non-empty string") }
        return text
    }

    func string(_ key: String) throws(BodyError) -> String {
        guard let text = try optionalString(key) else { throw BodyError(reason: "\"\(key)\" is required") }
        return text
    }

    func optionalInt(_ key: String) throws(BodyError) -> Int? {
        guard !isAbsent(key) else { return nil }
        switch values[key] {
        case .integer(let value)?: if let int = Int(exactly: value) { return int }
        case .number(let value)?: if let int = Int(exactly: value) { return int }
        default: break
        }
        throw BodyError(reason: "\"\(key)\" must be an integer")
    }

    func int(_ key: String) throws(BodyError) -> Int {
        guard let value = try optionalInt(key) else { throw BodyError(reason: "\"\(key)\" is required") }
        return value
    }

    func optionalDouble(_ key: String) throws(BodyError) -> Double? {
        guard !isAbsent(key) else { return nil }
        switch values[key] {
        case .integer(let value)?: return Double(value)
        case .number(let value)?: return value
        default: throw BodyError(reason: "\"\(key)\" must be a number")
        }
    }

    func optionalBool(_ key: String) throws(BodyError) -> Bool? {
        guard !isAbsent(key) else { return nil }
        guard case .bool(let value)? = values[key] else { throw BodyError(reason: "\"\(key)\" must be true or false") }
        return value
    }

    func bool(_ key: String) throws(BodyError) -> Bool {
        guard let value = try optionalBool(key) else { throw BodyError(reason: "\"\(key)\" is required") }
        return value
    }

    func optionalUUID(_ key: String) throws(BodyError) -> UUID? {
        guard let text = try optionalString(key) else { return nil }
        guard let uuid = UUID(uuidString: text) else { throw BodyError(reason: "\"\(key)\" must be a UUID, not \"\(text)\"") }
        return uuid
    }

    func offer(_ key: String) throws(BodyError) -> Offer? {
        guard !isAbsent(key) else { return nil }
        let fields = try StepFields(values[key] ?? .null)
        return Offer(
            type: OfferType(rawValue: try fields.string("type")), id: try fields.optionalString("id"),
            paymentMode: try fields.optionalString("paymentMode").map(OfferPaymentMode.init(rawValue:)),
            period: try fields.optionalString("period"))
    }

    func money(_ key: String) throws(BodyError) -> Money {
        guard !isAbsent(key) else { throw BodyError(reason: "\"\(key)\" is required") }
        let fields = try StepFields(values[key] ?? .null)
        return Money(milliUnits: Int64(try fields.int("milliUnits")), currency: try fields.string("currency"))
    }

    func advance() throws(BodyError) -> ScenarioAdvance {
        let given = ["periods", "days", "seconds", "to"].filter { !isAbsent($0) }
        guard given.count == 1 else { throw BodyError(reason: "give exactly one of \"periods\", \"days\", \"seconds\" or \"to\"") }
        switch given[0] {
        case "periods":
            let count = try int("periods")
            guard count >= 1 else { throw BodyError(reason: "\"periods\" must be at least 1") }
            return .periods(count, of: try string("of"))
        case "days":
            let days = try int("days")
            guard days >= 0 else { throw BodyError(reason: "\"days\" must not be negative") }
            return .days(days, scaled: try optionalBool("scaled") ?? false)
        case "seconds":
            guard let seconds = try optionalDouble("seconds"), seconds >= 0 else { throw BodyError(reason: "\"seconds\" must not be negative") }
            return .seconds(seconds)
        default:
            return .to(try Self.date(try string("to"), key: "to"))
        }
    }

    static func date(_ text: String, key: String) throws(BodyError) -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        throw BodyError(reason: "\"\(key)\" must be an ISO 8601 instant like 2026-01-01T00:00:00Z, not \"\(text)\"")
    }

    func transactionReference() throws(BodyError) -> ScenarioTransactionReference {
        let subscription = try string("of")
        guard !isAbsent("transaction") else { return ScenarioTransactionReference(subscription: subscription) }
        if case .string(let text)? = values["transaction"] {
            switch text {
            case "latest": return ScenarioTransactionReference(subscription: subscription, selector: .latest)
            case "original": return ScenarioTransactionReference(subscription: subscription, selector: .original)
            default: break
            }
        } else if let index = try? optionalInt("transaction"), index >= 0 {
            return ScenarioTransactionReference(subscription: subscription, selector: .index(index))
        }
        throw BodyError(reason: "\"transaction\" must be \"latest\", \"original\" or a 0-based index")
    }

    func refundAmount() throws(BodyError) -> RefundAmount {
        switch try optionalString("amount") {
        case nil, "full": .full
        case "prorated": .prorated
        case let other?: throw BodyError(reason: "\"amount\" must be \"full\" or \"prorated\", not \"\(other)\"")
        }
    }

    func revocationReason() throws(BodyError) -> RevocationReason {
        switch try optionalString("reason") {
        case nil, "other": .other
        case "developerIssue": .developerIssue
        case let other?: throw BodyError(reason: "\"reason\" must be \"developerIssue\" or \"other\", not \"\(other)\"")
        }
    }

    func extensionReason() throws(BodyError) -> RenewalExtensionReason {
        guard !isAbsent("reason") else { return .undeclared }
        if let code = try? optionalInt("reason"), let reason = RenewalExtensionReason(rawValue: code) { return reason }
        let names: [String: RenewalExtensionReason] = [
            "undeclared": .undeclared, "customerSatisfaction": .customerSatisfaction, "other": .other,
            "serviceIssueOrOutage": .serviceIssueOrOutage,
        ]
        if case .string(let name)? = values["reason"], let reason = names[name] { return reason }
        throw BodyError(reason: "\"reason\" must be 0–3 or undeclared, customerSatisfaction, other, serviceIssueOrOutage")
    }

    func faults() throws(BodyError) -> DeliveryFaults {
        let known: Set<String> = ["duplicateProbability", "reorder", "delay", "dropProbability", "dropNext"]
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw BodyError(reason: "\"\(unknown)\" is not a delivery fault (\(known.sorted().joined(separator: ", ")))")
        }
        let duplicate = try optionalDouble("duplicateProbability") ?? 0
        let drop = try optionalDouble("dropProbability") ?? 0
        guard (0...1).contains(duplicate), (0...1).contains(drop) else { throw BodyError(reason: "probabilities must be between 0 and 1") }
        let delay = try optionalDouble("delay") ?? 0
        let dropNext = try optionalInt("dropNext") ?? 0
        guard delay >= 0, dropNext >= 0 else { throw BodyError(reason: "\"delay\" and \"dropNext\" must not be negative") }
        return DeliveryFaults(
            duplicateProbability: duplicate, reorder: try optionalBool("reorder") ?? false, delay: delay, dropProbability: drop,
            dropNext: dropNext)
    }

    func verifyReceiptFailure() throws(BodyError) -> InjectedVerifyReceiptFailure {
        if try optionalBool("http503") == true { return .serviceUnavailableHTML }
        let status = VerifyReceiptStatus(rawValue: try int("status"))
        if let retryable = try optionalBool("retryable") { return .internalError(status, retryable: retryable) }
        return .status(status)
    }

    func serverAPIFailure() throws(BodyError) -> InjectedServerAPIFailure {
        let status = try int("status")
        guard (400...599).contains(status) else { throw BodyError(reason: "\"status\" must be an HTTP error status (400–599)") }
        return InjectedServerAPIFailure(
            status: status, errorCode: APIErrorCode(rawValue: try int("errorCode")),
            message: try optionalString("errorMessage") ?? "Injected by the simulator.")
    }

    func expectation() throws(BodyError) -> ScenarioExpectation {
        var expectation = ScenarioExpectation()
        if !isAbsent("notifications") {
            guard case .array(let items)? = values["notifications"] else {
                throw BodyError(reason: "\"notifications\" must be a list of \"TYPE\" or \"TYPE/SUBTYPE\" strings")
            }
            var kinds: [String] = []
            for item in items {
                guard case .string(let kind) = item, !kind.isEmpty else {
                    throw BodyError(reason: "\"notifications\" must be a list of \"TYPE\" or \"TYPE/SUBTYPE\" strings")
                }
                kinds.append(kind)
            }
            expectation.notifications = kinds
        }
        if !isAbsent("status") {
            guard case .object(let statuses)? = values["status"] else {
                throw BodyError(reason: "\"status\" must map subscription aliases to status names")
            }
            for (alias, value) in statuses {
                guard case .string(let name) = value, let status = SimulatedSubscriptionStatus(scenarioName: name) else {
                    throw BodyError(reason: "the status of \"\(alias)\" must be active, inGracePeriod, inBillingRetry, expired or revoked")
                }
                expectation.statuses[alias] = status
            }
        }
        guard expectation.notifications != nil || !expectation.statuses.isEmpty else {
            throw BodyError(reason: "an expectation needs \"notifications\" or \"status\"")
        }
        return expectation
    }
}
