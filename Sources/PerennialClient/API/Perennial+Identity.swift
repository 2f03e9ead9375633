extension Perennial {
    /// The app user the SDK acts for now: the id the app signed in with ``logIn(_:)``, or the
    /// anonymous one (`$anonymous:` and a UUID) it made up for this device before anyone logged in.
    public func currentAppUserID() async -> String {
        await identity.current()
    }

    /// Whether nobody logged in: purchases belong to the device's anonymous user until someone does.
    public func isAnonymous() async -> Bool {
        AnonymousAppUser.isAnonymous(await identity.current())
    }

    /// Logs `appUserID` (the app's own id for the signed-in account) in and answers their subscriber.
    ///
    /// When the user was anonymous, the server is asked to move what the anonymous user bought to
    /// `appUserID`, as the app's transfer policy says (``Subscriber/transfer`` names the anonymous
    /// user when it moved, ``Subscriber/kept`` when the policy keeps purchases with their first
    /// owner); purchases still in the journal are delivered for the anonymous user first, so they
    /// move with the rest, and those that cannot be delivered yet still reach the server for the
    /// anonymous user later. Then the SDK acts for `appUserID`: what it kept of the previous user is
    /// forgotten and listeners of ``subscriberUpdates`` hear the new user's subscriber.
    ///
    /// The server is asked before anything switches: when it cannot be reached, the error is thrown
    /// and the previous user stays signed in, so calling again later is safe (the server moves each
    /// purchase once).
    ///
    /// - Throws: ``PerennialError/userSwitchRefused(_:)`` when `appUserID` is empty or anonymous, or
    ///   the configuration's `appUserID` provider decides the user; ``PerennialError/server(_:)``
    ///   when the server could not answer.
    public func logIn(_ appUserID: String) async throws(PerennialError) -> Subscriber {
        let previous = try await identity.switchable()
        guard !appUserID.isEmpty, !appUserID.hasPrefix(AnonymousAppUser.prefix) else {
            throw .userSwitchRefused("'\(appUserID)' cannot be a logged-in user: the app's id for the account is expected")
        }
        guard appUserID != previous else { return try await subscriber() }
        let answer: SubscriberResponse
        do {
            if AnonymousAppUser.isAnonymous(previous) {
                await uploader.deliverDue(urgent: await uploader.pendingKeys(of: previous))
                answer = try await server.logIn(appUserID: appUserID, anonymousAppUserID: previous)
            } else {
                answer = try await server.subscriber(appUserID: appUserID)
            }
        } catch {
            configuration.log.info("identity", "log-in not switched: \(PerennialError.server(error).code.rawValue)")
            throw .server(error)
        }
        await identity.keep(appUserID)
        // Kept and published as the signed-in user's answer, replacing the previous user's.
        return await cache.accept(answer)
    }

    /// Logs the signed-in user out: the SDK acts for a new anonymous user from now on, and forgets
    /// what it kept of the previous one (listeners hear the new user's subscriber once the server
    /// answers). Purchases still in the journal are delivered for the user who made them. An
    /// anonymous user stays who they are: a new anonymous id would leave their purchases behind.
    /// Answers the user now signed in.
    ///
    /// - Throws: ``PerennialError/userSwitchRefused(_:)`` when the configuration's `appUserID`
    ///   provider decides the user.
    @discardableResult
    public func logOut() async throws(PerennialError) -> String {
        let current = try await identity.switchable()
        guard !AnonymousAppUser.isAnonymous(current) else { return current }
        let anonymous = AnonymousAppUser.make()
        await identity.keep(anonymous)
        // Forgets the previous user's answer even offline, and asks for the new user's.
        _ = try? await subscriber()
        return anonymous
    }
}
