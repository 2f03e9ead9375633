import Foundation

/// Who the SDK acts for. With the configuration's `appUserID` provider, the app's own sign-in
/// decides and the SDK only asks. Without one, the SDK keeps the id on the device
/// (``PerennialConfiguration/identityStore``): an anonymous id made up on first use, so a purchase
/// made before anyone logs in has an owner the server can later move it from, replaced by
/// ``Perennial/logIn(_:)`` and ``Perennial/logOut()``.
actor AppUserIdentity {
    private let provider: (@Sendable () async -> String)?
    private let persistence: any PersistentStore
    private let log: PerennialLog
    /// The kept id once read or made up: the store is read once per SDK instance.
    private var kept: String?

    init(configuration: PerennialConfiguration) {
        self.provider = configuration.appUserID
        self.persistence = configuration.identityStore
        self.log = configuration.log
    }

    /// The user signed in now.
    func current() async -> String {
        if let provider { return await provider() }
        return keptUser()
    }

    /// The id the SDK keeps, or why ``Perennial/logIn(_:)`` and ``Perennial/logOut()`` cannot
    /// switch it: the app's provider decides who the user is, and a switch here would be ignored.
    func switchable() throws(PerennialError) -> String {
        guard provider == nil else {
            throw .userSwitchRefused("the configuration's appUserID provider decides the user; sign in and out in the app, not with logIn/logOut")
        }
        return keptUser()
    }

    /// Makes `appUserID` the user from now on, on the device too.
    func keep(_ appUserID: String) {
        kept = appUserID
        save(appUserID)
    }

    private func keptUser() -> String {
        if let kept { return kept }
        let stored = (try? persistence.load()).flatMap { $0 }.flatMap { try? WireJSON.decoder().decode(Stored.self, from: $0) }
        let appUserID = stored?.appUserID ?? AnonymousAppUser.make()
        if stored == nil { save(appUserID) }
        kept = appUserID
        return appUserID
    }

    private func save(_ appUserID: String) {
        do {
            try persistence.save(try WireJSON.encoder().encode(Stored(appUserID: appUserID)))
        } catch {
            // The id still holds until the app quits; after a relaunch an anonymous user is a new
            // one (whose purchases `restorePurchases()` brings back), a logged-in one logs in again.
            log.warning("identity", "user id not saved: \(error)")
        }
    }

    /// What the identity store holds.
    private struct Stored: Codable {
        let appUserID: String
    }
}
