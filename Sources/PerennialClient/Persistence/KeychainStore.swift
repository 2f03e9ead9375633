#if canImport(Security)
public import Foundation
import Security

/// A ``PersistentStore`` in the Keychain: unlike the app's container, Keychain items survive an app
/// being deleted and reinstalled, so a purchase that was paid but never delivered is still there.
public struct KeychainStore: PersistentStore {
    /// The generic-password item's service.
    public let service: String
    /// The generic-password item's account.
    public let account: String

    /// A store for one Keychain item.
    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// The item's bytes, or nil when there is no item.
    public func load() throws -> Data? {
        var query = self.query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
        return result as? Data
    }

    /// Updates the item, or adds it when missing.
    public func save(_ data: Data) throws {
        let update = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
    }
}
#endif
