/// What the user did on Apple's refund request sheet. Apple decides on the refund later; a granted
/// one arrives as a revoked transaction and reaches the server like any other.
public enum RefundRequestResult: Sendable, Hashable {
    /// The request was sent to Apple.
    case submitted
    /// The user closed the sheet without asking.
    case userCancelled
}
