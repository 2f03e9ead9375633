import ArgumentParser
import PerennialCore

/// `--monthly-commitment PRODUCT=9.99:USD`: a one-year product the simulator also sells as a monthly
/// plan with a 12-month commitment, at this monthly price (docs/scenarios.md, "Monthly plans with a
/// 12-month commitment").
struct MonthlyCommitmentPrice: ExpressibleByArgument {
    let productID: String
    let price: Money

    init?(argument: String) {
        let sides = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard sides.count == 2, !sides[0].isEmpty else { return nil }
        let amount = sides[1].split(separator: ":").map(String.init)
        guard amount.count == 2, amount[1].count == 3, amount[1].allSatisfy({ $0.isASCII && $0.isUppercase }),
            let milliUnits = CatalogLoader.milliUnits(amount[0])
        else { return nil }
        productID = sides[0]
        price = Money(milliUnits: milliUnits, currency: amount[1])
    }
}
