import Foundation
public import PerennialCore

/// The catalog every ``LiveSystem`` sells unless a test brings its own: Examples/catalog.json's
/// products under the bundle id `com.example.perennial`.
///
/// Product ids (subscription group `20000001`, level 1 is the highest):
/// - `com.example.perennial.premium.yearly` (P1Y, level 1)
/// - `com.example.perennial.premium.monthly` (P1M, level 1)
/// - `com.example.perennial.standard.monthly` (P1M, level 2)
/// - `com.example.perennial.coins.100` (consumable)
/// - `com.example.perennial.lifetime` (non-consumable)
/// - `com.example.perennial.season` (non-renewing, P3M)
///
/// Entitlements: `premium` (premium.yearly, premium.monthly, lifetime) and `standard` (every
/// subscription and season).
///
/// Every product costs 9.99 USD; premium.yearly is also sold as a monthly plan with a 12-month
/// commitment at ``premiumYearlyMonthlyPrice`` (a purchase with `"billingPlan": "monthly"`).
public enum LiveCatalog {
    /// The bundle id of the catalog's only app.
    public static let bundleID = "com.example.perennial"
    public static let premiumYearly = "com.example.perennial.premium.yearly"
    public static let premiumMonthly = "com.example.perennial.premium.monthly"
    public static let standardMonthly = "com.example.perennial.standard.monthly"
    public static let coins = "com.example.perennial.coins.100"
    public static let lifetime = "com.example.perennial.lifetime"
    public static let season = "com.example.perennial.season"
    /// The monthly charge of premium.yearly's monthly plan with a 12-month commitment.
    public static let premiumYearlyMonthlyPrice = Money(milliUnits: 990, currency: "USD")

    /// The catalog as JSON (docs/catalog.md), kept here rather than read from Examples/ so tests
    /// do not depend on the working directory.
    public static let json = #"""
        {
          "apps": [{ "bundleId": "com.example.perennial", "appAppleId": 1234567890 }],
          "subscriptionGroups": [
            {
              "id": "20000001",
              "name": "Perennial Premium",
              "products": [
                { "id": "com.example.perennial.premium.yearly", "level": 1, "duration": "P1Y" },
                { "id": "com.example.perennial.premium.monthly", "level": 1, "duration": "P1M" },
                { "id": "com.example.perennial.standard.monthly", "level": 2, "duration": "P1M" }
              ]
            }
          ],
          "products": [
            { "id": "com.example.perennial.coins.100", "type": "consumable" },
            { "id": "com.example.perennial.lifetime", "type": "nonConsumable" },
            { "id": "com.example.perennial.season", "type": "nonRenewing", "duration": "P3M" }
          ],
          "entitlements": [
            { "id": "premium",
              "products": ["com.example.perennial.premium.yearly", "com.example.perennial.premium.monthly", "com.example.perennial.lifetime"] },
            { "id": "standard",
              "products": ["com.example.perennial.premium.yearly", "com.example.perennial.premium.monthly",
                           "com.example.perennial.standard.monthly", "com.example.perennial.season"] }
          ]
        }
        """#
}
