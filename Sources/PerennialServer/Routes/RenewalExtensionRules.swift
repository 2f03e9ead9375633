/// Apple's limits on a renewal-date extension, checked before Apple is asked (one subscription
/// or all active subscribers of a product alike).
enum RenewalExtensionRules {
    static func check(days: Int, reasonCode: Int) throws(APIError) {
        guard (1...90).contains(days) else {
            throw .malformed("extendByDays must be from 1 to 90, Apple's limit for one extension (got \(days))")
        }
        guard (0...3).contains(reasonCode) else {
            throw .malformed(
                "extendReasonCode must be Apple's 0 (undeclared), 1 (customer satisfaction), 2 (other) or 3 (service issue or outage), got \(reasonCode)")
        }
    }

    /// Storefronts as Apple takes them: absent for all, else a non-empty list of ISO 3166-1 alpha-3 codes.
    static func check(storefronts: [String]?) throws(APIError) {
        guard let storefronts else { return }
        guard !storefronts.isEmpty else { throw .malformed("storefrontCountryCodes must name at least one storefront (omit it for all)") }
        for code in storefronts where code.count != 3 || !code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) {
            throw .malformed("storefrontCountryCodes must be ISO 3166-1 alpha-3 codes such as USA or FRA (got \"\(code)\")")
        }
    }
}
