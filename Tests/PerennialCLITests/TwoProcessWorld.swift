import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// The setting of ``TwoProcessTests``: a configuration file with one app whose JWS root is a PKI
/// the test generated, one webhook endpoint, and a simulated App Store that mints the signed
/// transactions the test posts (consumables, one `oneTimePurchase` event each).
struct TwoProcessWorld {
    static let appID = "two"
    static let publicKey = "pk_two"
    static let webhookSecret = "whsec_two"
    static let coins = "com.example.perennial.coins.100"

    /// The repository root, where `Examples/catalog.json` is found.
    private static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let directory: URL
    let config: URL
    private let pki: SimulatorPKI
    private var store: SimulatorState

    /// Writes the configuration into a fresh directory: webhooks go to `hooks`, claims last
    /// `leaseSeconds`, idle processes poll twice a second.
    init(hooks: URL, leaseSeconds: Double, requestTimeoutSeconds: Double) throws {
        let now = Date()
        directory = try CLIProcess.temporaryDirectory()
        pki = try SimulatorPKI.generate(validFrom: now.addingTimeInterval(-86_400))
        let catalogFile = Self.repositoryRoot.appendingPathComponent("Examples/catalog.json")
        let catalog = try CatalogLoader.load(json: try Data(contentsOf: catalogFile))
        store = SimulatorState(configuration: SimulatorConfiguration(catalog: catalog, environment: .sandbox), start: now)

        let root = directory.appendingPathComponent("jws-root.der")
        try pki.jwsRootDER.write(to: root)
        let configuration: [String: Any] = [
            "logLevel": "notice",
            "webhookDelivery": ["leaseSeconds": leaseSeconds, "pollIntervalSeconds": 0.5, "requestTimeoutSeconds": requestTimeoutSeconds],
            "apps": [
                [
                    "id": Self.appID, "bundleId": "com.example.perennial", "catalog": catalogFile.path, "environments": ["Sandbox"],
                    "publicKeys": [Self.publicKey], "trustedRoots": [root.path],
                    "webhooks": [["url": hooks.absoluteString, "secret": Self.webhookSecret]],
                ]
            ],
        ]
        config = directory.appendingPathComponent("perennial.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.prettyPrinted]).write(to: config)
    }

    /// `users` app users each buy `perUser` coin packs. Each user's purchases are posted (as
    /// StoreKit 2's JWS) one after another, alternating between the servers, so every user's
    /// events are stored by both processes and in purchase order; the users post concurrently, so
    /// a backlog builds up for the webhook job.
    ///
    /// - Returns: the transaction ids posted.
    mutating func postPurchases(users: Int, perUser: Int, to servers: [ServeProcess]) async throws -> [String] {
        var signed: [[(transactionID: String, jws: String)]] = Array(repeating: [], count: users)
        for _ in 0..<perUser {
            for user in 0..<users {
                let output = try store.apply(
                    .purchase(PurchaseRequest(productID: Self.coins, account: SandboxAccount(id: "buyer-\(user)@example.com"))))
                guard let transaction = output.transactions.first else { throw CLIProcess.CLIError("the purchase made no transaction") }
                signed[user].append((transaction.transactionID, try pki.signedTransaction(transaction, signedDate: store.now)))
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (user, purchases) in signed.enumerated() {
                group.addTask {
                    for (index, purchase) in purchases.enumerated() {
                        let server = servers[(user + index) % servers.count]
                        let status = try await server.post(
                            "v1/subscribers/user-\(user)/transactions", json: #"{"signedTransaction":"\#(purchase.jws)"}"#,
                            bearer: Self.publicKey)
                        guard status == 200 else { throw CLIProcess.CLIError("posting a purchase answered \(status):\n\(server.logText)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        return signed.flatMap { $0.map(\.transactionID) }
    }
}
