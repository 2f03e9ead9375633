import Foundation
public import PerennialAppStore
public import PerennialCore

/// Every app this server serves, looked up by URL id or by the public key a client presents.
public struct AppRegistry: Sendable {
    public let apps: [AppContext]

    /// - Throws: ``ConfigurationError/duplicate(field:value:)`` when two apps share an id, a
    ///   bundle id or a public key (a request could not tell them apart).
    public init(_ apps: [AppContext]) throws(ConfigurationError) {
        var ids = Set<String>()
        var bundles = Set<String>()
        var keys = Set<[UInt8]>()
        for app in apps {
            guard ids.insert(app.id).inserted else { throw .duplicate(field: "apps[].id", value: app.id) }
            guard bundles.insert(app.bundleID).inserted else { throw .duplicate(field: "apps[].bundleId", value: app.bundleID) }
            for key in app.publicKeys {
                guard keys.insert(key).inserted else { throw .duplicate(field: "apps[].publicKeys", value: "of app \(app.id)") }
            }
        }
        self.apps = apps
    }

    /// Resolves every app of `configuration`; their App Store Server API clients stamp tokens with `wallClock`.
    public init(
        configuration: ServerConfiguration, environment: [String: String], transport: any AppStoreHTTPTransport,
        wallClock: any TimeSource = WallClock()
    ) throws(ConfigurationError) {
        var apps: [AppContext] = []
        for app in configuration.apps {
            apps.append(try AppContext(configuration: app, environment: environment, transport: transport, wallClock: wallClock))
        }
        try self.init(apps)
    }

    /// The app with this URL id.
    public func app(id: String) -> AppContext? {
        apps.first { $0.id == id }
    }

    /// The app owning the presented public key; every key is compared, in constant time, so the
    /// answer's timing does not reveal how close a guess was.
    func app(publicKey: [UInt8]) -> AppContext? {
        let digest = ConstantTime.digest(publicKey)
        var match: AppContext?
        for app in apps where app.isPublicKey(digest: digest) { match = app }
        return match
    }
}
