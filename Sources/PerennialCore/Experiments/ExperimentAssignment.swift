/// Which variant of an experiment a user is in: a pure function of the experiment's id and the
/// app user id, so a user keeps their variant on every device, after a reinstall and on every
/// instance, with nothing stored. Another experiment's id hashes differently, so starting a new
/// experiment does not move anyone in this one.
///
/// The hash is FNV-1a (64 bits) of the UTF-8 of "experimentId:appUserId", finished with the
/// SplitMix64 mixer of ``SeededRandomNumberGenerator`` so neighbouring ids ("user-1", "user-2")
/// land far apart. The assignment needs uniformity, not secrecy: Core depends on Foundation only,
/// so no cryptographic hash is pulled in.
public enum ExperimentAssignment {
    /// The user's bucket in 0..<100: the same pair always gives the same bucket.
    public static func bucket(experimentID: String, appUserID: String) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(experimentID):\(appUserID)".utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var mixer = SeededRandomNumberGenerator(seed: hash)
        return Int(mixer.next() % 100)
    }

    /// The variant whose cumulative weights cover the user's bucket, in the experiment's order;
    /// nil only when the weights sum to less than the bucket (an experiment whose weights do not
    /// sum to 100, which the actions refuse).
    public static func variant(of appUserID: String, in experiment: ExperimentDefinition) -> ExperimentVariant? {
        let bucket = bucket(experimentID: experiment.id, appUserID: appUserID)
        var covered = 0
        for variant in experiment.variants {
            covered += variant.weight
            if bucket < covered { return variant }
        }
        return nil
    }

    /// The variant of a user asking for offerings in `context`: only while the experiment runs
    /// and when the user, judged from `subscriber` at the view's instant, is in its audience
    /// (the offering targeting's rules). Nil leaves the choice to ``OfferingChoice``.
    public static func variant(
        of appUserID: String, in experiment: ExperimentDefinition, context: OfferingContext, subscriber: SubscriberView
    ) -> ExperimentVariant? {
        guard experiment.state == .running, experiment.audience.matches(context, audience: OfferingAudience(of: subscriber)) else { return nil }
        return variant(of: appUserID, in: experiment)
    }
}
