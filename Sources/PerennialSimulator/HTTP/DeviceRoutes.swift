import Foundation
import Hummingbird
import PerennialAppStore
import PerennialCore

/// The device side under `/simulator/v1`: accounts, purchases with Ask to Buy, and what StoreKit
/// shows an app (unfinished transactions, current entitlements, the app receipt).
struct DeviceRoutes {
    let simulator: AppStoreSimulator

    func add(to group: RouterGroup<BasicRequestContext>) {
        group.post("accounts") { request, _ in
            await RouteHandling.run {
                let body = try await SimulatorJSON.decode(AccountBody.self, from: request)
                let account = SandboxAccount(
                    id: body.id, storefront: body.storefront ?? "USA", renewalBehavior: body.renewal ?? .renew, appDownload: body.appDownload)
                try await simulator.createAccount(account)
                return SimulatorJSON.response(AccountAnswer(id: account.id, storefront: account.storefront), status: .created)
            }
        }
        group.post("purchases") { request, _ in
            await RouteHandling.run {
                let body = try await SimulatorJSON.decode(PurchaseBody.self, from: request)
                switch try await simulator.purchase(body.purchase) {
                case .purchased(let completed): return SimulatorJSON.response(PurchaseAnswer(completed))
                case .pending(let id): return SimulatorJSON.response(PurchaseAnswer(pendingID: id), status: .accepted)
                }
            }
        }
        group.post("pending/:pendingId/approve") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("pendingId")
                return SimulatorJSON.response(PurchaseAnswer(try await simulator.approve(pendingID: id)))
            }
        }
        group.post("pending/:pendingId/decline") { _, context in
            await RouteHandling.run {
                try await simulator.decline(pendingID: try context.parameters.require("pendingId"))
                return SimulatorJSON.response(PurchaseAnswer(status: "declined"))
            }
        }
        group.get("accounts/:id/unfinished") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("id")
                return SimulatorJSON.response(SignedTransactionsBody(signedTransactions: try await simulator.unfinishedTransactions(accountID: id)))
            }
        }
        group.post("accounts/:id/transactions/:transactionId/finish") { _, context in
            await RouteHandling.run {
                try await simulator.finish(
                    accountID: try context.parameters.require("id"), transactionID: try context.parameters.require("transactionId"))
                return Response(status: .noContent)
            }
        }
        group.get("accounts/:id/entitlements") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("id")
                return SimulatorJSON.response(SignedTransactionsBody(signedTransactions: try await simulator.currentEntitlements(accountID: id)))
            }
        }
        group.post("accounts/:id/restore") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("id")
                return SimulatorJSON.response(SignedTransactionsBody(signedTransactions: try await simulator.restore(accountID: id)))
            }
        }
        group.get("accounts/:id/app-transaction") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("id")
                return SimulatorJSON.response(AppTransactionBody(signedAppTransaction: try await simulator.appTransaction(accountID: id)))
            }
        }
        group.get("accounts/:id/transactions/:transactionId/transaction-receipt") { _, context in
            await RouteHandling.run {
                let receipt = try await simulator.transactionReceipt(
                    accountID: try context.parameters.require("id"), transactionID: try context.parameters.require("transactionId"))
                return SimulatorJSON.response(TransactionReceiptBody(transactionReceipt: receipt))
            }
        }
        group.post("accounts/:id/subscriptions/:originalTransactionId/view") { request, context in
            await RouteHandling.run {
                let locale = request.uri.queryParameters.get("locale") ?? "en-US"
                return SimulatorJSON.response(
                    try await simulator.viewSubscriptionPage(
                        accountID: try context.parameters.require("id"), originalTransactionID: try context.parameters.require("originalTransactionId"),
                        locale: locale))
            }
        }
        group.get("accounts/:id/receipt") { _, context in
            await RouteHandling.run {
                let id = try context.parameters.require("id")
                return SimulatorJSON.response(ReceiptBody(receipt: try await simulator.appReceipt(accountID: id).base64))
            }
        }
    }

    struct AccountAnswer: Encodable {
        let id: String
        let storefront: String
    }
}
