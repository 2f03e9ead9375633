/// Why an SDK call did not give the answer asked for.
public enum PerennialError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be asked or refused.
    case server(ServerError)
    /// The store failed.
    case store(StoreError)
    /// The user paid, the purchase is safe in the journal and unfinished in the store, but the
    /// server has not acknowledged it yet. It is retried with backoff (and at every launch) and the
    /// entitlement arrives through ``Perennial/subscriberUpdates``. Apps should tell the user the
    /// purchase is being processed, not that it failed, and must not offer to buy again.
    case notYetDelivered(transactionID: String, reason: ServerError)
    /// The journal could not be written, so nothing was uploaded or finished; the store keeps the
    /// transaction unfinished and hands it over again at the next `start()`.
    case journalUnavailable(String)
    /// A promotional offer's legacy signature covers the user's app account token, and the server
    /// could not give the token: StoreKit would refuse the signature, so no payment was asked for.
    /// Nothing was paid; the purchase can be tried again once the server answers.
    case appAccountTokenUnavailable(ServerError)
    /// ``Perennial/logIn(_:)`` or ``Perennial/logOut()`` switched no user: the id given cannot be a
    /// logged-in user (empty, or an anonymous id), or the configuration's `appUserID` provider
    /// decides who the user is. A mistake in the app's code, not the user's.
    case userSwitchRefused(String)

    /// True when money may have changed hands and the outcome is still on its way (do not show a
    /// failure or a buy button again).
    public var isPaymentPending: Bool {
        switch self {
        case .notYetDelivered, .journalUnavailable: true
        case .server, .store, .appAccountTokenUnavailable, .userSwitchRefused: false
        }
    }

    /// Names the failure and its cause.
    public var description: String {
        switch self {
        case .server(let error): "\(error)"
        case .store(let error): "\(error)"
        case .notYetDelivered(let id, let reason): "purchase \(id) paid and journaled, not yet delivered (\(reason)); will retry"
        case .journalUnavailable(let reason): "journal could not be written: \(reason)"
        case .appAccountTokenUnavailable(let reason):
            "the promotional offer is signed for the user's app account token, which could not be fetched (\(reason)); nothing was paid"
        case .userSwitchRefused(let reason): "user not switched: \(reason)"
        }
    }
}
