import Foundation
import PerennialCore
import PerennialWire

extension Offering {
    /// The stored offering as apps and operators read it. Its metadata was checked to be JSON
    /// objects when it was written (``OfferingActions``); text that somehow is not reads as null
    /// rather than failing every answer of the app.
    init(_ definition: OfferingDefinition) {
        self.init(
            id: definition.id, products: definition.productIDs,
            metadata: definition.metadata.mapValues { (try? JSONDecoder().decode(OpaqueJSON.self, from: Data($0.utf8))) ?? .null },
            targeting: OfferingTargetingRules(definition.targeting), priority: definition.priority, isDefault: definition.isDefault)
    }
}

extension OfferingTargetingRules {
    /// Stored targeting as the wire writes it, for offerings and experiments' audiences alike.
    init(_ targeting: OfferingTargeting) {
        self.init(
            storefronts: targeting.storefronts, minimumAppVersion: targeting.minimumAppVersion?.description,
            maximumAppVersion: targeting.maximumAppVersion?.description, audiences: targeting.audiences?.map(\.rawValue))
    }
}
