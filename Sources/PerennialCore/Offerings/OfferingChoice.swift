/// Which offering a user sees now: the one decision between an app's offerings, kept pure (no
/// storage, no clock) so every door — the client API, a preview, a test — decides alike.
public enum OfferingChoice {
    /// The highest-priority offering whose targeting matches `context` and the audience of
    /// `subscriber` (judged at the view's instant), ties going to the smaller id so every instance
    /// answers the same; when none matches, the default offering whatever its targeting; else nil.
    public static func current(among offerings: [OfferingDefinition], in context: OfferingContext, subscriber: SubscriberView) -> OfferingDefinition? {
        let audience = OfferingAudience(of: subscriber)
        let best = offerings.filter { $0.targeting.matches(context, audience: audience) }.min { first, second in
            first.priority != second.priority ? first.priority > second.priority : first.id < second.id
        }
        return best ?? offerings.first(where: \.isDefault)
    }
}
