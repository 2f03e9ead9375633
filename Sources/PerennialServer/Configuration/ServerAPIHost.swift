import Foundation
import PerennialAppStore

/// The App Store Server API host an app names in its configuration (`serverAPI.host`), checked as
/// a host name at start: a pasted URL or a typo fails there, not at the first renewal Perennial
/// asks Apple about, months later.
struct ServerAPIHost: Equatable {
    /// The host name, lowercased (host names are not case-sensitive).
    let name: String

    /// Why `text` is not a host name, or the host.
    init(_ text: String, field: String) throws(ConfigurationError) {
        let name = text.lowercased()
        if let reason = Self.refusal(of: name) {
            throw .invalidValue(field: field, value: text, reason: reason)
        }
        self.name = name
    }

    /// The base URL of the client's requests.
    var baseURL: URL {
        // A validated host name always forms a URL.
        URL(string: "https://" + name)!
    }

    /// The deployment of Apple's this host serves; nil for another host (a proxy's).
    var appleEnvironment: ServerAPIEnvironment? {
        [ServerAPIEnvironment.production, .sandbox].first { $0.appleHosts.contains(name) }
    }

    /// RFC 1123's host-name rule: dot-separated labels of letters, digits and inner hyphens, each at
    /// most 63 characters, 253 in all.
    private static func refusal(of name: String) -> String? {
        if name.contains("/") || name.contains(":") {
            return "give the host name alone (api.storekit.apple.com), without a scheme, port or path; baseURL takes a whole URL"
        }
        guard !name.isEmpty, name.count <= 253 else { return "a host name has 1 to 253 characters" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.count <= 63, label.allSatisfy(allowed.contains), label.first != "-", label.last != "-" else {
                return "'\(label)' is not a host name label (letters, digits and inner hyphens, 1 to 63 of them)"
            }
        }
        return nil
    }
}
