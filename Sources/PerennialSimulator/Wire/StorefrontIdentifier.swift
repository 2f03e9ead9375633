/// Apple's `storefrontId` for a storefront's ISO 3166-1 alpha-3 code (`USA` → `143441`), the value
/// StoreKit's `Storefront.id` reports and V2 transactions carry next to `storefront`.
///
/// Apple documents the field as "an Apple-defined value" without publishing a table; these are the
/// identifiers StoreKit reports for the App Store's main storefronts. A storefront missing here is
/// sent without `storefrontId`, as older payloads are.
public enum StorefrontIdentifier {
    /// The identifier of `storefront`, nil when the table does not know it.
    public static func of(_ storefront: String) -> String? {
        table[storefront.uppercased()]
    }

    static let table: [String: String] = [
        "USA": "143441", "FRA": "143442", "DEU": "143443", "GBR": "143444", "AUT": "143445", "BEL": "143446",
        "FIN": "143447", "GRC": "143448", "IRL": "143449", "ITA": "143450", "LUX": "143451", "NLD": "143452",
        "PRT": "143453", "ESP": "143454", "CAN": "143455", "SWE": "143456", "NOR": "143457", "DNK": "143458",
        "CHE": "143459", "AUS": "143460", "NZL": "143461", "JPN": "143462", "HKG": "143463", "SGP": "143464",
        "CHN": "143465", "KOR": "143466", "IND": "143467", "MEX": "143468", "RUS": "143469", "TWN": "143470",
        "VNM": "143471", "ZAF": "143472", "MYS": "143473", "PHL": "143474", "THA": "143475", "IDN": "143476",
        "PAK": "143477", "POL": "143478", "SAU": "143479", "TUR": "143480", "ARE": "143481", "HUN": "143482",
        "CHL": "143483", "ROU": "143487", "CZE": "143489", "ISR": "143491", "UKR": "143492", "COL": "143501",
        "BRA": "143503", "ARG": "143505", "PER": "143507", "EGY": "143516",
    ]
}
