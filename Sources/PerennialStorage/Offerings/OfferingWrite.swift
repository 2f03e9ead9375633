/// What became of an offering written to an ``OfferingStore``: the store, not its caller, decides
/// the conflicts, so two operators writing at once cannot leave an app with two defaults.
public enum OfferingWrite: Sendable, Hashable {
    case written
    /// Adding: the app has an offering with this id already.
    case idTaken
    /// Replacing: the app has no offering with this id.
    case noSuchOffering
    /// The offering is a default and the app's default is another offering, this one.
    case defaultTaken(by: String)
}
