/// What became of a rule written to a ``RetentionRuleStore``: the store decides the conflicts, so
/// two operators adding at once cannot pass the app's limit.
public enum RetentionRuleWrite: Sendable, Hashable {
    case written
    /// Adding: the app has a rule with this id already.
    case idTaken
    /// Replacing: the app has no rule with this id.
    case noSuchRule
    /// Adding: the app has as many rules as the server allows.
    case limitReached(Int)
}
