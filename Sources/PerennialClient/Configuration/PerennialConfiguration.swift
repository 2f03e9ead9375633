public import Foundation

/// Everything the SDK needs to know about the app it is embedded in.
///
/// Only the server URL and the public key are required; every other value has a default that suits
/// a production app. Tests inject the clock and in-memory stores.
public struct PerennialConfiguration: Sendable {
    /// The Perennial server's base URL (the `/v1` routes are appended).
    public var serverURL: URL
    /// The app's public key, sent as `Authorization: Bearer …`; it identifies the app.
    public var publicKey: String
    /// The app's id for the signed-in user, when the app's own sign-in decides it. Read again for
    /// every new transaction, so a user switch takes effect immediately; a transaction keeps the id
    /// it was recorded under. Nil (the default): the SDK keeps the user itself — anonymous until
    /// ``Perennial/logIn(_:)`` — in ``identityStore``.
    public var appUserID: (@Sendable () async -> String)?
    /// A token from the developer's backend proving who the user is (`X-Perennial-User-Token`);
    /// nil when the app does not enable user tokens on the server.
    public var userToken: (@Sendable (_ appUserID: String) async throws -> String?)?
    /// At most this many uploads run at once, so a launch with many unfinished transactions does
    /// not open dozens of connections.
    public var maxConcurrentUploads: Int
    /// A cached subscriber older than this (since the server last answered) is marked stale.
    public var staleAfter: TimeInterval
    /// How many transactions the journal holds before refusing background ones (see
    /// ``PendingTransactionJournal``); a purchase the user just paid for is always accepted.
    public var journalCapacity: Int
    /// Retry schedule for uploads that failed.
    public var backoff: BackoffPolicy
    /// Where the pending-transaction journal is written. Must survive app restarts.
    public var journalStore: any PersistentStore
    /// Where the last server answer is written, so a cold start without network still answers.
    public var cacheStore: any PersistentStore
    /// Where the last offerings answer is written, so a paywall still shows without network
    /// (``Perennial/offerings()``).
    public var offeringsStore: any PersistentStore
    /// The device's App Store storefront ("USA"), asked for each ``Perennial/offerings()`` call,
    /// since offerings may target storefronts and a user can move. Nil (the default): not sent,
    /// and offerings targeting storefronts do not match. With StoreKit 2:
    /// `{ await Storefront.current?.countryCode }`.
    public var storefront: (@Sendable () async -> String?)?
    /// The app's version as offerings target it (dotted numbers); the bundle's
    /// `CFBundleShortVersionString` by default.
    public var appVersion: String? = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
    /// Where the SDK keeps the user it acts for when ``appUserID`` is nil (the anonymous id made up
    /// on first use, or the user ``Perennial/logIn(_:)`` named). Must survive app restarts: a lost
    /// anonymous id leaves that user's purchases behind until they are restored.
    public var identityStore: any PersistentStore
    /// The device's clocks.
    public var clock: PerennialClock
    /// The catalog's product → entitlements mapping, for the offline fallback: when the server
    /// cannot be reached and no fresh answer is cached, entitlements come from the store's current
    /// entitlements through it (``Subscriber/source`` says so). Empty turns the fallback off.
    public var offlineEntitlements: [String: Set<String>] = [:]
    /// The server's answer-signing public key (Ed25519, 32 raw bytes; `perennial serve` prints it
    /// when `answerSigning` is configured). When set, a subscriber answer without a valid signature
    /// is refused (``ServerError/unverifiedAnswer(_:)``), so a proxy on the device's network cannot
    /// grant entitlements. Nil (the default) accepts answers as TLS delivers them.
    public var answerSigningKey: Data?
    /// How long after the server last answered (measured on the monotonic clock, so changing the
    /// date does not extend it) the offline fallback may still answer. Three days by default: long
    /// enough for a flight or a weekend without network, short enough that a blocked server does
    /// not become free access.
    public var offlineFallbackLimit: TimeInterval = 3 * 24 * 60 * 60
    /// Whether each StoreKit 2 purchase of a subscription asks the server for its signed verdict
    /// on the introductory offer and hands it to StoreKit, which then applies the server's rule
    /// (by the app's account) instead of its own (by Apple ID): a user who had a trial under one
    /// Apple ID does not get another under a second. Needs the server's `promotionalOffers` key
    /// with the team's issuer id; when the server cannot answer, the purchase goes ahead under
    /// Apple's rule. Off by default.
    public var serverDecidesIntroEligibility = false
    /// The least important log line written. Warnings by default: a failed upload or a refused
    /// answer shows in Console without the SDK narrating every purchase.
    public var logLevel: PerennialLogLevel = .warning
    /// Receives the SDK's log lines instead of `os.Logger` (an app's own logging, a test). Linux has
    /// no default destination, so there the SDK says nothing without one.
    public var logHandler: (@Sendable (PerennialLogEntry) -> Void)?

    /// Where this configuration's log lines go.
    var log: PerennialLog { PerennialLog(level: logLevel, handler: logHandler) }

    /// A configuration storing its files in `directory` (the journal goes to the Keychain on Apple
    /// platforms, so an app reinstall does not lose a paid purchase that was never delivered).
    /// Without `appUserID` the SDK keeps the user there too.
    public init(
        serverURL: URL,
        publicKey: String,
        directory: URL,
        appUserID: (@Sendable () async -> String)? = nil,
        userToken: (@Sendable (_ appUserID: String) async throws -> String?)? = nil,
        maxConcurrentUploads: Int = 4,
        staleAfter: TimeInterval = 24 * 60 * 60,
        journalCapacity: Int = 200,
        backoff: BackoffPolicy = BackoffPolicy(),
        clock: PerennialClock = .system
    ) {
        self.init(
            serverURL: serverURL, publicKey: publicKey, appUserID: appUserID, userToken: userToken,
            maxConcurrentUploads: maxConcurrentUploads, staleAfter: staleAfter, journalCapacity: journalCapacity,
            backoff: backoff, journalStore: Self.defaultJournalStore(directory: directory),
            cacheStore: FileStore(url: directory.appendingPathComponent("perennial-subscriber.json")),
            offeringsStore: FileStore(url: directory.appendingPathComponent("perennial-offerings.json")),
            identityStore: FileStore(url: directory.appendingPathComponent("perennial-identity.json")), clock: clock)
    }

    /// A configuration with explicit stores. The offerings are kept in memory unless
    /// `offeringsStore` says where to keep them across launches.
    public init(
        serverURL: URL,
        publicKey: String,
        appUserID: (@Sendable () async -> String)? = nil,
        userToken: (@Sendable (_ appUserID: String) async throws -> String?)? = nil,
        maxConcurrentUploads: Int = 4,
        staleAfter: TimeInterval = 24 * 60 * 60,
        journalCapacity: Int = 200,
        backoff: BackoffPolicy = BackoffPolicy(),
        journalStore: any PersistentStore,
        cacheStore: any PersistentStore,
        offeringsStore: any PersistentStore = InMemoryStore(),
        identityStore: any PersistentStore,
        clock: PerennialClock = .system
    ) {
        self.serverURL = serverURL
        self.publicKey = publicKey
        self.appUserID = appUserID
        self.userToken = userToken
        self.maxConcurrentUploads = max(1, maxConcurrentUploads)
        self.staleAfter = staleAfter
        self.journalCapacity = max(1, journalCapacity)
        self.backoff = backoff
        self.journalStore = journalStore
        self.cacheStore = cacheStore
        self.offeringsStore = offeringsStore
        self.identityStore = identityStore
        self.clock = clock
    }

    private static func defaultJournalStore(directory: URL) -> any PersistentStore {
        #if canImport(Security)
        // A fixed account, never a path: the container's path changes on reinstall and on
        // container moves, and a journal filed under the old path would be lost with it.
        KeychainStore(service: "dev.perennial.journal", account: "pending-transactions")
        #else
        FileStore(url: directory.appendingPathComponent("perennial-journal.json"))
        #endif
    }
}
