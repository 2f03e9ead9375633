public import Foundation

/// When a tester first bought (or downloaded) the app, and in which version: what StoreKit 2's
/// `AppTransaction` states as `originalPurchaseDate` and `originalApplicationVersion`.
///
/// Lets a test play the customer an app that went from paid to freemium must keep honouring: one
/// who paid for version 1.0 before any in-app purchase existed.
public struct AppDownload: Hashable, Sendable, Codable {
    public let date: Date
    /// The app's `CFBundleVersion` at that download.
    public let version: String

    public init(date: Date, version: String) {
        self.date = date
        self.version = version
    }
}
