import PerennialAppStore

/// The admin keys the server accepts, resolved at start: each key's name, scope and the digest a
/// presented key is compared with in constant time.
public struct AdminKeys: Sendable {
    struct Key: Sendable {
        let name: String
        let scope: AdminScope
        let digest: [UInt8]

        /// Names this value of the key without revealing it (a digest of its digest), for what is
        /// stored about it.
        var fingerprint: String {
            Base64URL.encode(ConstantTime.digest(digest))
        }
    }

    let keys: [Key]

    /// No key: the admin routes answer 401 ("admin routes are disabled").
    public static let none = AdminKeys(keys: [])

    init(keys: [Key]) {
        self.keys = keys
    }

    /// The configured keys: the single `"adminKey"` as `admin` with the full scope, then the named
    /// `"adminKeys"`.
    ///
    /// - Throws: ``ConfigurationError`` when a secret cannot be read, or two keys share a name or
    ///   a value (an action could not be attributed).
    public init(configuration: ServerConfiguration, environment: [String: String]) throws(ConfigurationError) {
        var entries = configuration.adminKeys
        if let single = configuration.adminKey {
            entries.insert(AdminKeyConfiguration(name: "admin", key: single, scope: .full), at: 0)
        }
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() {
            let field = configuration.adminKey != nil && index == 0 ? "adminKey" : "adminKeys[\(entry.name)].key"
            guard !entry.name.isEmpty else { throw .invalidValue(field: "adminKeys[].name", value: "", reason: "name every key") }
            let digest = ConstantTime.digest(Array(try entry.key.resolve(field: field, environment: environment).utf8))
            guard !keys.contains(where: { $0.name == entry.name }) else { throw .duplicate(field: "adminKeys[].name", value: entry.name) }
            guard !keys.contains(where: { $0.digest == digest }) else { throw .duplicate(field: "adminKeys[].key", value: "of \(entry.name)") }
            keys.append(Key(name: entry.name, scope: entry.scope, digest: digest))
        }
        self.init(keys: keys)
    }

    var isEmpty: Bool { keys.isEmpty }

    /// The key named `name` whose value still has `fingerprint` (``Key/fingerprint``): a dashboard
    /// session outlives neither its key's removal nor a new value under the same name.
    func key(named name: String, fingerprint: String) -> Key? {
        keys.first { $0.name == name && ConstantTime.equals($0.fingerprint, fingerprint) }
    }

    /// The key whose value is `presented`; every key is compared, in constant time, so the
    /// answer's timing does not reveal how close a guess was.
    func key(presented: [UInt8]) -> Key? {
        let digest = ConstantTime.digest(presented)
        var match: Key?
        for key in keys where ConstantTime.equalDigests(key.digest, digest) { match = key }
        return match
    }
}
