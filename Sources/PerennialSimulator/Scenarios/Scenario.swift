public import Foundation
import PerennialAppStore

/// A scenario file: a store, its sandbox accounts and the steps that happen to them, with the
/// notifications each part must produce (docs/scenarios.md).
///
/// Scenarios are the simulator's stories — a trial that renews and lapses, an upgrade, a refund
/// and its reversal — written once as data, so the same file drives the test suite, the CLI
/// (`perennial simulator run`) and a server's integration tests.
public struct Scenario: Hashable, Sendable {
    public var name: String?
    public var description: String?
    public var store: ScenarioStore
    public var accounts: [SandboxAccount]
    public var steps: [ScenarioStep]

    /// A scenario built in code.
    public init(name: String? = nil, description: String? = nil, store: ScenarioStore = ScenarioStore(), accounts: [SandboxAccount], steps: [ScenarioStep]) {
        self.name = name
        self.description = description
        self.store = store
        self.accounts = accounts
        self.steps = steps
    }

    /// Reads a scenario file.
    ///
    /// - Throws: ``ScenarioDecodingError`` naming the field, or the step index and key, at fault.
    public static func decode(json: Data) throws(ScenarioDecodingError) -> Scenario {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw .malformedJSON("\(error)")
        }
        let top = try field("", value)
        let known: Set<String> = ["name", "description", "store", "accounts", "steps"]
        if let unknown = top.values.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidField(path: unknown, reason: "not a scenario field (\(known.sorted().joined(separator: ", ")))")
        }
        let store = top.isAbsent("store") ? ScenarioStore() : try ScenarioStore(try field("store", top.values["store"] ?? .null))
        guard case .array(let stepValues)? = top.values["steps"], !stepValues.isEmpty else {
            throw .invalidField(path: "steps", reason: "a non-empty list of steps is required")
        }
        var steps: [ScenarioStep] = []
        for (index, stepValue) in stepValues.enumerated() {
            steps.append(try ScenarioStep.decode(stepValue, step: index))
        }
        return Scenario(
            name: try read("name") { () throws(ScenarioStep.BodyError) in try top.optionalString("name") },
            description: try read("description") { () throws(ScenarioStep.BodyError) in try top.optionalString("description") },
            store: store, accounts: try accounts(top.values["accounts"]), steps: steps)
    }

    private static func field(_ path: String, _ value: JSONValue) throws(ScenarioDecodingError) -> StepFields {
        do {
            return try StepFields(value)
        } catch {
            throw .invalidField(path: path.isEmpty ? "(top level)" : path, reason: "must be a JSON object")
        }
    }

    /// Runs one field read, turning its error into one naming `path`.
    /// An account's `appDownload`: when it bought the app (ISO 8601) and in which version.
    private static func appDownload(_ fields: StepFields, path: String) throws(ScenarioDecodingError) -> AppDownload? {
        guard !fields.isAbsent("appDownload"), let value = fields.values["appDownload"] else { return nil }
        let download = try field(path + ".appDownload", value)
        let date = try read(path + ".appDownload.date") { () throws(ScenarioStep.BodyError) in
            try StepFields.date(try download.string("date"), key: "date")
        }
        let version = try read(path + ".appDownload.version") { () throws(ScenarioStep.BodyError) in try download.string("version") }
        return AppDownload(date: date, version: version)
    }

    static func read<T>(_ path: String, _ body: () throws(ScenarioStep.BodyError) -> T) throws(ScenarioDecodingError) -> T {
        do {
            return try body()
        } catch {
            throw .invalidField(path: path, reason: error.reason)
        }
    }

    /// `[{"id", "storefront"?, "renewal"?: "renew" | "failBilling" | {"failWithProbability": p},
    /// "appDownload"?: {"date", "version"}}]`
    private static func accounts(_ value: JSONValue?) throws(ScenarioDecodingError) -> [SandboxAccount] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else { throw .invalidField(path: "accounts", reason: "must be a list of accounts") }
        var accounts: [SandboxAccount] = []
        for (index, item) in items.enumerated() {
            let path = "accounts[\(index)]"
            let fields = try field(path, item)
            let id = try read(path + ".id") { () throws(ScenarioStep.BodyError) in try fields.string("id") }
            let storefront = try read(path + ".storefront") { () throws(ScenarioStep.BodyError) in try fields.optionalString("storefront") }
            let behavior: RenewalBehavior
            switch fields.values["renewal"] {
            case nil, .null?, .string("renew")?: behavior = .renew
            case .string("failBilling")?: behavior = .failBilling
            case .object(let object)? where object.keys.sorted() == ["failWithProbability"]:
                let probability = try read(path + ".renewal.failWithProbability") { () throws(ScenarioStep.BodyError) in
                    try StepFields(.object(object)).optionalDouble("failWithProbability") ?? -1
                }
                guard (0...1).contains(probability) else {
                    throw .invalidField(path: path + ".renewal.failWithProbability", reason: "must be a number between 0 and 1")
                }
                behavior = .failWithProbability(probability)
            default:
                throw .invalidField(path: path + ".renewal", reason: "must be \"renew\", \"failBilling\" or {\"failWithProbability\": p}")
            }
            guard !accounts.contains(where: { $0.id == id }) else { throw .invalidField(path: path + ".id", reason: "account \"\(id)\" is declared twice") }
            accounts.append(SandboxAccount(id: id, storefront: storefront ?? "USA", renewalBehavior: behavior, appDownload: try appDownload(fields, path: path)))
        }
        return accounts
    }
}
