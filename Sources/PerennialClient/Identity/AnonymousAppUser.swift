import Foundation

/// The app user id the SDK makes up for a device before anyone logs in. The prefix is the server's
/// contract (`POST /v1/subscribers/{id}/log-in` moves purchases only from ids that carry it), so
/// no account system's id can be mistaken for one, and an app cannot log in as one.
enum AnonymousAppUser {
    static let prefix = "$anonymous:"

    /// A new anonymous id: the prefix and a random UUID, never handed out twice.
    static func make() -> String {
        prefix + UUID().uuidString.lowercased()
    }

    static func isAnonymous(_ appUserID: String) -> Bool {
        appUserID.hasPrefix(prefix) && appUserID.count > prefix.count
    }
}
