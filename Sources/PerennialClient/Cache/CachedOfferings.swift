import Foundation

/// The last offerings answer as kept on the device: whose it is, so another user's paywall is
/// never shown (an audience such as "lapsed" is one user's), and when it arrived.
struct CachedOfferings: Codable, Sendable, Equatable {
    let appUserID: String
    let response: OfferingsResponse
    /// The device's clock at its arrival.
    let fetchedAt: Date
}
