public import PerennialCore

/// The offerings operators define per app (``PerennialCore/OfferingDefinition``), kept in the
/// database so every instance answers the same paywall from the moment one is written. Every
/// method names its app: an offering id is only unique within one.
public protocol OfferingStore: Sendable {
    /// Adds an offering; changes nothing unless the answer is ``OfferingWrite/written``.
    func addOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite

    /// Replaces the app's offering with `offering.id`; changes nothing unless the answer is
    /// ``OfferingWrite/written``.
    func replaceOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite

    /// Removes an offering of an app.
    /// - Returns: the removed offering; nil when the app has no such offering.
    func removeOffering(id: String, appBundleID: String) async throws(StorageError) -> OfferingDefinition?

    /// The offerings of one app, by id.
    func offerings(appBundleID: String) async throws(StorageError) -> [OfferingDefinition]
}
