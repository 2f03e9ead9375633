import Foundation
import PerennialAppStore
import PerennialCore

/// Where an app's App Store Server API calls go.
extension AppConfiguration {
    /// The deployment the client calls: Production when the app accepts Production evidence,
    /// since a subscriber's renewals are asked of the deployment that sold them.
    var serverAPIEnvironment: ServerAPIEnvironment {
        environments.contains(.production) ? .production : .sandbox
    }

    /// The base URL `serverAPI` names: its `host` on https, its `baseURL` (a simulator's), or nil
    /// for Apple's default host of ``serverAPIEnvironment``.
    func serverAPIBaseURL() throws(ConfigurationError) -> URL? {
        guard let serverAPI else { return nil }
        let field = "apps.\(id).serverAPI"
        switch (serverAPI.host, serverAPI.baseURL) {
        case (nil, let baseURL): return baseURL
        case (let host?, nil): return try ServerAPIHost(host, field: field + ".host").baseURL
        case (let host?, _?): throw .invalidValue(field: field + ".host", value: host, reason: "give host or baseURL, not both")
        }
    }
}
