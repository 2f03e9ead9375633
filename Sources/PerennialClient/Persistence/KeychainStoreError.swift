#if canImport(Security)
import Security

/// A Keychain call failed; `status` is the `OSStatus` it returned.
public struct KeychainStoreError: Error, CustomStringConvertible {
    /// The Security framework's status code.
    public let status: OSStatus
    /// Names the status.
    public var description: String { "Keychain error \(status)" }
}
#endif
