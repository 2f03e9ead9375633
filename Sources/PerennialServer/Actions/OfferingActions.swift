import Foundation
import Logging
import PerennialCore
import PerennialStorage
import PerennialWire

/// The offerings an app sells (docs/offerings.md), defined with a full-scope key and answered to
/// the app at its next request, on every instance sharing the database. Each change is logged with
/// the key's name.
enum OfferingActions {
    /// The offering `request` describes, every field checked against the app's catalog and the
    /// server's limits; `id` is the path's when replacing.
    static func definition(
        _ request: OfferingRequest, id: String, app: AppContext, limits: ServerLimits, at now: Date, by key: ActingKey
    ) throws(OfferingError) -> OfferingDefinition {
        guard isName(id) else { throw .invalidID(id) }
        return OfferingDefinition(
            id: id, appBundleID: app.bundleID, productIDs: try products(request.products, app: app),
            metadata: try metadata(request.metadata ?? [:], limit: limits.maxOfferingMetadataBytes),
            targeting: try targeting(request.targeting), priority: request.priority ?? 0, isDefault: request.isDefault ?? false,
            updatedAt: now, updatedBy: key.name)
    }

    static func products(_ ids: [String], app: AppContext) throws(OfferingError) -> [String] {
        guard !ids.isEmpty else { throw .noProducts }
        var seen: Set<String> = []
        let repeated = ids.filter { !seen.insert($0).inserted }
        guard repeated.isEmpty else { throw .duplicateProducts(Array(Set(repeated)).sorted()) }
        let unknown = ids.filter { app.catalog.product(id: $0)?.bundleID != app.bundleID }
        guard unknown.isEmpty else { throw .unknownProducts(unknown, app: app.id) }
        return ids
    }

    /// Each locale's object as JSON text with its keys sorted, so equal metadata is stored alike;
    /// the limit counts the whole metadata object as it is sent to apps.
    static func metadata(_ metadata: [String: OpaqueJSON], limit: Int) throws(OfferingError) -> [String: String] {
        var texts: [String: String] = [:]
        for (locale, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard (1...OfferingError.maximumLocaleLength).contains(locale.count), locale.allSatisfy(isLocaleCharacter) else {
                throw .invalidLocale(locale)
            }
            guard case .object = value else { throw .metadataNotObject(locale: locale) }
            texts[locale] = canonical(value)
        }
        let bytes = canonical(.object(metadata)).utf8.count
        guard bytes <= limit else { throw .metadataTooLarge(bytes: bytes, limit: limit) }
        return texts
    }

    static func targeting(_ request: OfferingTargetingRequest?) throws(OfferingError) -> OfferingTargeting {
        guard let request else { return OfferingTargeting() }
        var targeting = OfferingTargeting()
        if let codes = request.storefronts {
            guard !codes.isEmpty else { throw .emptyCondition("storefronts") }
            let invalid = codes.filter { OfferingContext.storefront($0) == nil }
            guard invalid.isEmpty else { throw .invalidStorefronts(invalid) }
            targeting.storefronts = Array(Set(codes.compactMap(OfferingContext.storefront))).sorted()
        }
        targeting.minimumAppVersion = try request.minimumAppVersion.map(version)
        targeting.maximumAppVersion = try request.maximumAppVersion.map(version)
        if let minimum = targeting.minimumAppVersion, let maximum = targeting.maximumAppVersion, minimum > maximum {
            throw .emptyVersionRange(minimum: minimum.description, maximum: maximum.description)
        }
        if let names = request.audiences {
            guard !names.isEmpty else { throw .emptyCondition("audiences") }
            let unknown = names.filter { OfferingAudience(rawValue: $0) == nil }
            guard unknown.isEmpty else { throw .unknownAudiences(unknown) }
            targeting.audiences = OfferingAudience.allCases.filter { names.contains($0.rawValue) }
        }
        return targeting
    }

    static func version(_ text: String) throws(OfferingError) -> AppVersion {
        guard let version = AppVersion(text) else { throw .invalidAppVersion(text) }
        return version
    }

    /// The storage's answer as the operator's error, or the offering when it was written.
    static func written(_ outcome: OfferingWrite, _ offering: OfferingDefinition, app: AppContext) throws(OfferingError) -> OfferingDefinition {
        switch outcome {
        case .written: offering
        case .idTaken: throw .duplicateOffering(offering.id)
        case .noSuchOffering: throw .noSuchOffering(offering.id, app: app.id)
        case .defaultTaken(let other): throw .defaultTaken(by: other)
        }
    }

    static func log(_ message: Logger.Message, _ offering: OfferingDefinition, by key: ActingKey, app: AppContext, logger: Logger) {
        logger.info(
            "admin action: \(message)",
            metadata: ["admin": "\(key.name)", "app": "\(app.id)", "offering": "\(offering.id)", "isDefault": "\(offering.isDefault)"])
    }

    private static func canonical(_ value: OpaqueJSON) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An OpaqueJSON always encodes (it came from JSON); a NaN cannot reach it.
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// Whether `id` may be an operator-chosen id that is also a path segment (offerings,
    /// experiments, variants, retention rules).
    static func isName(_ id: String) -> Bool {
        (1...OfferingError.maximumIDLength).contains(id.count) && id.allSatisfy(isNameCharacter)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_" || character == "-")
    }

    private static func isLocaleCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
    }
}

/// Adds an offering to an app.
struct AddOffering: OperatorAction {
    static let scope = AdminScope.full

    let request: OfferingRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Offering {
        guard let id = request.id else { throw OfferingError.missingID }
        let offering = try OfferingActions.definition(request, id: id, app: app, limits: dependencies.limits, at: dependencies.clock.now, by: key)
        let added = try OfferingActions.written(try await dependencies.storage.addOffering(offering), offering, app: app)
        OfferingActions.log("offering added", added, by: key, app: app, logger: dependencies.logger)
        return Offering(added)
    }
}

/// Replaces an offering of an app with the request's, whole: a field left out takes its default.
struct ReplaceOffering: OperatorAction {
    static let scope = AdminScope.full

    let offeringID: String
    let request: OfferingRequest
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Offering {
        if let id = request.id, id != offeringID { throw OfferingError.idMismatch(path: offeringID, body: id) }
        let offering = try OfferingActions.definition(
            request, id: offeringID, app: app, limits: dependencies.limits, at: dependencies.clock.now, by: key)
        let replaced = try OfferingActions.written(try await dependencies.storage.replaceOffering(offering), offering, app: app)
        OfferingActions.log("offering replaced", replaced, by: key, app: app, logger: dependencies.logger)
        return Offering(replaced)
    }
}

/// Removes an offering; apps stop receiving it at their next request.
struct RemoveOffering: OperatorAction {
    static let scope = AdminScope.full

    let offeringID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Offering {
        guard let removed = try await dependencies.storage.removeOffering(id: offeringID, appBundleID: app.bundleID) else {
            throw OfferingError.noSuchOffering(offeringID, app: app.id)
        }
        OfferingActions.log("offering removed", removed, by: key, app: app, logger: dependencies.logger)
        return Offering(removed)
    }
}
