// The SDK's whole flow against `perennial serve --simulator`, on Linux or macOS:
//
//   swift run perennial-example [SERVER_URL] [PUBLIC_KEY] [SIMULATOR_URL] [PRODUCT_ID]
//
// or the environment variables PERENNIAL_SERVER_URL, PERENNIAL_PUBLIC_KEY, PERENNIAL_SIMULATOR_URL,
// PERENNIAL_PRODUCT_ID. It signs a fresh sandbox account in, buys a subscription, prints the
// entitlements the purchase returned, moves the simulator's clock past the period and shows the
// renewal arriving through the SDK's update stream.
import Foundation
import PerennialClient

func setting(_ index: Int, _ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    if arguments.count > index { return arguments[index] }
    return ProcessInfo.processInfo.environment[name] ?? fallback
}

func url(_ text: String) -> URL {
    guard let url = URL(string: text) else {
        print("not a URL: \(text)")
        exit(2)
    }
    return url
}

func describe(_ subscriber: Subscriber) -> String {
    let entitlements = subscriber.entitlements.values.sorted { $0.identifier < $1.identifier }.map { entitlement in
        "\(entitlement.identifier)=\(entitlement.isActive ? "active" : "inactive")"
            + " (\(entitlement.productID), transaction \(entitlement.transactionID), until \(entitlement.expiresDate.map { "\($0)" } ?? "forever"))"
    }
    return "\(subscriber.appUserID) at server time \(subscriber.serverNow): " + (entitlements.isEmpty ? "no entitlements" : entitlements.joined(separator: ", "))
}

let serverURL = url(setting(1, "PERENNIAL_SERVER_URL", "http://127.0.0.1:8080"))
let publicKey = setting(2, "PERENNIAL_PUBLIC_KEY", "pk_demo")
let simulatorURL = url(setting(3, "PERENNIAL_SIMULATOR_URL", "http://127.0.0.1:8090"))
let productID = setting(4, "PERENNIAL_PRODUCT_ID", "com.example.perennial.premium.monthly")
let account = "example-\(UUID().uuidString.prefix(8).lowercased())"
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-example-\(account)")

let control = SimulatorControl(baseURL: simulatorURL)
do {
    try await control.createAccount(id: account)
} catch {
    print("could not create sandbox account \(account): \(error)")
    exit(1)
}

let store = SimulatorStore(baseURL: simulatorURL, accountID: account)
let perennial = Perennial(
    configuration: PerennialConfiguration(serverURL: serverURL, publicKey: publicKey, directory: directory, appUserID: { account }),
    store: store)

// 1. Start at launch: from here on renewals and purchases made elsewhere are picked up.
await perennial.start()
print("started for app user \(account)")

// 2. Buy.
guard let product = try await perennial.products([productID]).first else {
    print("the store has no product \(productID)")
    exit(1)
}
let updates = perennial.subscriberUpdates
switch await perennial.purchase(product) {
case .success(let subscriber):
    print("purchased: \(describe(subscriber))")
case .pending:
    print("purchase pending (Ask to Buy)")
case .userCancelled:
    print("purchase cancelled")
case .failed(let error):
    print("purchase failed: \(error)\(error.isPaymentPending ? " — it will be delivered later" : "")")
}
let bought = try await perennial.subscriber().entitlements.values.first { $0.productID == productID }
let firstTransaction = bought?.transactionID

// 3. Let a renewal happen while the app "runs": move the store's clock just past the period's end
// (periods are scaled in the sandbox — a month lasts 5 minutes — so the end is read, not computed).
guard let periodEnd = bought?.expiresDate else {
    print("no expiring entitlement for \(productID); nothing to renew")
    exit(1)
}
let storeTime = try await control.advanceClock(to: periodEnd.addingTimeInterval(1))
print("simulator clock moved to \(storeTime); waiting for the renewal…")

// 4. The renewal reaches the SDK through the store's updates, is uploaded and published.
let renewal = Task { () -> Subscriber? in
    for await subscriber in updates {
        if let entitlement = subscriber.entitlements.values.first(where: { $0.productID == productID }),
            entitlement.transactionID != firstTransaction
        {
            return subscriber
        }
    }
    return nil
}
let timeout = Task {
    try? await Task.sleep(for: .seconds(30))
    renewal.cancel()
}
if let renewed = await renewal.value {
    print("renewed: \(describe(renewed))")
} else {
    print("no renewal arrived within 30 seconds; last known: \(describe(try await perennial.subscriber()))")
}
timeout.cancel()
print("pending transactions: \(await perennial.pendingTransactionCount())")
await perennial.stop()
try? FileManager.default.removeItem(at: directory)
