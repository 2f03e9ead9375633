import Foundation
import PerennialCore

/// Monthly plans with a 12-month commitment (App Store Server API 1.21): a one-year product bought
/// with the monthly billing plan is charged every month, each charge its own transaction carrying
/// `billingPlanType` `MONTHLY` and the month's `commitmentInfo`; the customer owes every month of
/// the commitment, so auto-renew off takes effect at the commitment's end
/// (https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment,
/// https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo).
extension SimulatorState {
    /// One month of a commitment: when its commitment began, when the month ends, and the
    /// transaction's `commitmentInfo`.
    struct CommitmentMonth {
        let commitmentStart: Date
        let expires: Date
        let info: CommitmentPeriod
        let price: Money
    }

    /// The month of a commitment to `product` starting at `start`: the next month of `lifecycle`'s
    /// commitment while it runs, else the first of a new one. Nil when the product is not sold
    /// with a monthly plan (a one-year product with a monthly price).
    func commitmentMonth(of product: Product, at start: Date, after lifecycle: SubscriptionLifecycle? = nil) -> CommitmentMonth? {
        guard let monthly = configuration.monthlyCommitmentPrices[product.id], let duration = product.duration, duration.months == 12
        else { return nil }
        let scale = configuration.timeScale
        var commitmentStart = start
        var number = 1
        if let lifecycle, let previous = lifecycle.latestTransaction.commitmentInfo, let began = lifecycle.commitmentStart,
            previous.expiresDate > start, lifecycle.latestTransaction.productID == product.id
        {
            commitmentStart = began
            number = (previous.billingPeriodNumber ?? 0) + 1
        }
        // Months end at whole months from the commitment's start (the twelfth with the commitment),
        // unless a late billing recovery already passed that point.
        let scheduled = scale.end(of: SubscriptionDuration(iso8601: "P\(number)M") ?? duration, startingAt: commitmentStart)
        let expires = scheduled > start ? scheduled : scale.end(of: SubscriptionDuration(iso8601: "P1M") ?? duration, startingAt: start)
        let info = CommitmentPeriod(
            billingPeriodNumber: number, totalBillingPeriods: duration.months,
            expiresDate: scale.end(of: duration, startingAt: commitmentStart),
            price: Self.commitmentPrice(monthly: monthly, months: duration.months))
        return CommitmentMonth(commitmentStart: commitmentStart, expires: expires, info: info, price: monthly)
    }

    /// The first month of a purchase of `product` with the billing `plan` StoreKit asked for: nil
    /// when billed up front; refused when the product has no monthly plan, or with an offer.
    func commitmentMonth(buying product: Product, plan: BillingPlan?, offer: Offer?) throws(LifecycleError) -> CommitmentMonth? {
        guard let plan, plan != .billedUpfront else { return nil }
        guard plan == .monthly, let month = commitmentMonth(of: product, at: now) else { throw .noMonthlyCommitmentPlan(productID: product.id) }
        guard offer == nil else { throw .offerOnCommitmentPlan(productID: product.id) }
        return month
    }

    /// A new transaction for `month` of a commitment to `product`.
    mutating func makeCommitmentTransaction(
        product: Product, holder: Holder, start: Date, month: CommitmentMonth, reason: TransactionReason
    ) -> SimulatedTransaction {
        var transaction = makeTransaction(product: product, holder: holder, start: start, expires: month.expires, reason: reason, price: month.price)
        transaction.billingPlanType = .monthly
        transaction.commitmentInfo = month.info
        return transaction
    }

    /// What the whole commitment costs: its monthly price times its months.
    static func commitmentPrice(monthly: Money?, months: Int) -> Money? {
        monthly.map { Money(milliUnits: $0.milliUnits * Int64(months), currency: $0.currency) }
    }
}
