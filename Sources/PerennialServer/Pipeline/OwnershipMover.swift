/// Who presents a purchase's stored records again for another user, which decides how the move is
/// applied and how the timeline names its evidence.
public enum OwnershipMover: Sendable {
    /// An operator (the support desk's move): the transfer policy is forced to `transfer`, since an
    /// operator who moves a purchase has already decided who owns it.
    case support
    /// The user an anonymous user logged in as (`POST /v1/subscribers/{id}/log-in`): the app's
    /// transfer policy decides, as it does when any other user presents the purchase, so an app
    /// that keeps purchases with their first owner keeps these too.
    case logIn
}
