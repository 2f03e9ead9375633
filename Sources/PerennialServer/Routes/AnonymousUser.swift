import PerennialStorage

/// The app user ids the client SDK makes up for a device before anyone logs in
/// (`$anonymous:` + a UUID). The prefix is what lets the log-in route move purchases safely: it
/// moves only from an id of this form, which no account system hands out, so an app cannot take a
/// real user's purchases by naming them.
enum AnonymousUser {
    static let prefix = "$anonymous:"

    static func isAnonymous(_ user: AppUserID) -> Bool {
        user.rawValue.hasPrefix(prefix) && user.rawValue.count > prefix.count
    }
}
