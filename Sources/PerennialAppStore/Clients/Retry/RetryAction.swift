/// The ``RetryStateMachine``'s decision after a failed attempt; the client executes it.
public enum RetryAction<Failure: Error>: Sendable where Failure: Sendable {
    /// Wait this long, then make the next attempt.
    case retry(after: Duration)
    /// Stop: the failure is permanent, or the server asked for a longer wait than the policy allows.
    case giveUp(Failure)
    /// Stop: the policy's attempts are used up; `last` is the final attempt's failure.
    case exhausted(last: Failure, attempts: Int)
}

extension RetryAction: Equatable where Failure: Equatable {}
