/// Why a decoded scenario step cannot be carried out against the current store, or why a
/// scenario's store cannot be set up. The store is unchanged after any of these.
public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The step names a subscription alias no earlier step defined (and no original transaction
    /// id of the store has that text).
    case unknownAlias(String)
    /// A step gives an alias that is already taken.
    case duplicateAlias(String)
    /// The step names an account the scenario does not declare.
    case unknownAccount(String)
    /// A transaction index past the subscription's transactions.
    case transactionIndexOutOfRange(alias: String, index: Int, count: Int)
    /// `advance` by periods of a subscription that has nothing scheduled (expired, revoked, or
    /// not a subscription).
    case nothingScheduled(alias: String)
    /// The scenario names no catalog and the caller passed none.
    case noCatalog
    /// The catalog file cannot be read or is invalid.
    case invalidCatalog(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownAlias(let alias): "no subscription is named \"\(alias)\" (give it with \"as\" in an earlier step)"
        case .duplicateAlias(let alias): "the alias \"\(alias)\" is already taken"
        case .unknownAccount(let id): "account \"\(id)\" is not declared in the scenario's accounts"
        case .transactionIndexOutOfRange(let alias, let index, let count):
            "subscription \"\(alias)\" has \(count) transaction(s); index \(index) is out of range"
        case .nothingScheduled(let alias): "subscription \"\(alias)\" has no renewal date ahead (expired, revoked or not renewable)"
        case .noCatalog: "the scenario names no catalog file and none was given"
        case .invalidCatalog(let path, let reason): "catalog \(path): \(reason)"
        }
    }
}
