import ArgumentParser
import Foundation
import PerennialAppStore
import PerennialServer

/// `perennial support set-app-account-token`: a support action that asks Apple, run from a shell
/// as the admin API runs it (the same ``AppAccountTokenBinding``, with the same timeline entry),
/// with or without a server running; the app's App Store Server API key is the configuration's.
struct SupportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support",
        abstract: "Support actions that ask Apple, as the admin API runs them.",
        subcommands: [SetAppAccountToken.self]
    )

    struct SetAppAccountToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-app-account-token",
            abstract: "Bind a purchase at Apple to its owner's app account token (Set App Account Token), then apply Apple's answer.",
            discussion: "For purchases made outside the app or before it passed appAccountToken: docs/operations.md, \"Bind a purchase to its account at Apple\".")

        @Option(help: "The purchase's original transaction id; the user of the app who owns it is the one bound.")
        var purchase: String

        @OptionGroup var by: OperatorOptions

        @OptionGroup var app: AppOptions

        func run() async throws {
            try await app.withPipeline(transport: AsyncHTTPClientTransport(), label: "perennial.support") { pipeline in
                let binding = try AppAccountTokenBinding(pipeline: pipeline)
                let owned = try await OwnedPurchase.find(purchase, in: pipeline)
                let token = try await binding.bind(owned, by: by.operatorName, reason: by.reason, now: Date())
                print("purchase \(owned.originalTransactionID) of \(owned.owner) now carries app account token \(token.uuidString.lowercased()) at Apple")
            }
        }
    }
}
