/// How an app's figures are reported (docs/analytics.md): one reporting currency, a static
/// exchange-rate table (Perennial fetches nothing from the network), and whether the app is in
/// Apple's Small Business Program (15 % commission from the first charge).
public struct AnalyticsConfiguration: Sendable, Hashable, Decodable {
    /// ISO 4217 code every amount is reported in.
    public var reportingCurrency: String
    /// Value of one unit of each other currency in the reporting currency (`{"EUR": 1.08}`).
    /// An amount in a currency without a rate is left out of the sums and named in the report.
    public var exchangeRates: [String: Double]
    public var smallBusinessProgram: Bool

    public init(reportingCurrency: String = "USD", exchangeRates: [String: Double] = [:], smallBusinessProgram: Bool = false) {
        self.reportingCurrency = reportingCurrency
        self.exchangeRates = exchangeRates
        self.smallBusinessProgram = smallBusinessProgram
    }

    private enum CodingKeys: String, CodingKey {
        case reportingCurrency, exchangeRates, smallBusinessProgram
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            reportingCurrency: try container.decodeIfPresent(String.self, forKey: .reportingCurrency) ?? "USD",
            exchangeRates: try container.decodeIfPresent([String: Double].self, forKey: .exchangeRates) ?? [:],
            smallBusinessProgram: try container.decodeIfPresent(Bool.self, forKey: .smallBusinessProgram) ?? false)
    }

    /// `milliUnits` of `currency` in milli-units of the reporting currency, rounded to the
    /// nearest; nil without a rate.
    public func convert(_ milliUnits: Int64, from currency: String) -> Int64? {
        if currency == reportingCurrency { return milliUnits }
        guard let rate = exchangeRates[currency] else { return nil }
        return Int64((Double(milliUnits) * rate).rounded())
    }
}
