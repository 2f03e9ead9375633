import Foundation
public import PerennialStorage

/// How an app answers Apple's refund consumption requests (`apps.<id>.consumption`): off until
/// configured, because Apple takes consumption data only with the customer's consent, which the app
/// must collect (its terms or a prompt) before the operator sets ``customerConsented``.
///
/// The refund preference is the first matching rule's, else ``refundPreference``; the facts are
/// the app's latest report (`POST /v1/subscribers/{id}/consumption`) where it made one, else what
/// the records say (the share of the refunded period used) and the configured defaults.
public struct ConsumptionPolicy: Codable, Hashable, Sendable {
    /// A condition on the request and the preference it leads to.
    public struct Rule: Codable, Hashable, Sendable {
        /// Matches when the customer had the refunded period for more than this many days.
        public var usedMoreThanDays: Double?
        /// Matches when more than this percentage (0–100) was consumed.
        public var consumedMoreThanPercent: Double?
        /// `DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`, or absent for no preference.
        public var refundPreference: String?

        public init(usedMoreThanDays: Double? = nil, consumedMoreThanPercent: Double? = nil, refundPreference: String?) {
            self.usedMoreThanDays = usedMoreThanDays
            self.consumedMoreThanPercent = consumedMoreThanPercent
            self.refundPreference = refundPreference
        }
    }

    /// Must be true: the operator states that the app has the customer's consent to share the data.
    public var customerConsented: Bool
    /// The preference when no rule matches; absent for no preference.
    public var refundPreference: String?
    public var rules: [Rule]
    /// What is reported unless the app said otherwise.
    public var deliveryStatus: String
    public var sampleContentProvided: Bool

    public init(
        customerConsented: Bool, refundPreference: String? = nil, rules: [Rule] = [], deliveryStatus: String = "DELIVERED",
        sampleContentProvided: Bool = false
    ) {
        self.customerConsented = customerConsented
        self.refundPreference = refundPreference
        self.rules = rules
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
    }

    enum CodingKeys: String, CodingKey { case customerConsented, refundPreference, rules, deliveryStatus, sampleContentProvided }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            customerConsented: try container.decode(Bool.self, forKey: .customerConsented),
            refundPreference: try container.decodeIfPresent(String.self, forKey: .refundPreference),
            rules: try container.decodeIfPresent([Rule].self, forKey: .rules) ?? [],
            deliveryStatus: try container.decodeIfPresent(String.self, forKey: .deliveryStatus) ?? "DELIVERED",
            sampleContentProvided: try container.decodeIfPresent(Bool.self, forKey: .sampleContentProvided) ?? false)
    }

    /// Apple's values of Send Consumption Information (v2).
    public static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]
    public static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]

    /// Why the policy cannot be used, as the field and the reason; nil when it can.
    func problem(field: String) -> ConfigurationError? {
        guard customerConsented else {
            return .invalidValue(
                field: "\(field).customerConsented", value: "false",
                reason: "Apple takes consumption information only with the customer's consent; collect it in the app, then set true")
        }
        let preferences = [(field + ".refundPreference", refundPreference)]
            + rules.enumerated().map { ("\(field).rules[\($0)].refundPreference", $1.refundPreference) }
        for (path, value) in preferences {
            if let value, !Self.refundPreferences.contains(value) {
                return .invalidValue(field: path, value: value, reason: "not one of \(Self.refundPreferences.sorted().joined(separator: ", "))")
            }
        }
        for (index, rule) in rules.enumerated() where rule.usedMoreThanDays == nil && rule.consumedMoreThanPercent == nil {
            return .invalidValue(field: "\(field).rules[\(index)]", value: "{}", reason: "a rule needs usedMoreThanDays or consumedMoreThanPercent")
        }
        guard Self.deliveryStatuses.contains(deliveryStatus) else {
            return .invalidValue(
                field: "\(field).deliveryStatus", value: deliveryStatus, reason: "not one of \(Self.deliveryStatuses.sorted().joined(separator: ", "))")
        }
        return nil
    }

    /// The answer to `request`, given the app's latest `report` on the customer.
    public func answer(to request: RefundRequestRecord, report: ConsumptionReport?) -> RefundRequestRecord.Answer {
        var basis: [String] = []
        let usedDays = max(request.requestedAt.timeIntervalSince(request.purchaseDate), 0) / 86_400
        let consumption: Int?
        if let reported = report?.consumptionPercentage {
            consumption = reported
            basis.append("consumption reported by the app at \(Self.format(report?.reportedAt))")
        } else if let expires = request.expiresDate, expires > request.purchaseDate {
            let periodDays = expires.timeIntervalSince(request.purchaseDate) / 86_400
            consumption = Int((min(usedDays / periodDays, 1) * 100_000).rounded())
            basis.append(String(format: "%.1f of %.1f days of the period used", min(usedDays, periodDays), periodDays))
        } else {
            consumption = nil
            basis.append("consumption unknown (not reported by the app)")
        }
        let percent = consumption.map { Double($0) / 1000 }
        let matched = rules.firstIndex { rule in
            (rule.usedMoreThanDays.map { usedDays > $0 } ?? true) && (rule.consumedMoreThanPercent.map { (percent ?? 0) > $0 } ?? true)
        }
        basis.append(matched.map { "rule \($0 + 1) chose the refund preference" } ?? "default refund preference")
        return RefundRequestRecord.Answer(
            customerConsented: customerConsented, consumptionPercentage: consumption,
            deliveryStatus: report?.deliveryStatus ?? deliveryStatus,
            refundPreference: matched.map { rules[$0].refundPreference } ?? refundPreference,
            sampleContentProvided: report?.sampleContentProvided ?? sampleContentProvided, basis: basis.joined(separator: "; "))
    }

    private static func format(_ date: Date?) -> String {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? "an unknown time"
    }
}
