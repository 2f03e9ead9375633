import ArgumentParser
import Foundation
import PerennialAppStore
import PerennialServer
import PerennialWire

/// `perennial support set-app-account-token`: a support action that asks Apple, run from a shell
/// as the admin API runs it (the same action, ``PerennialServer/SetAppAccountToken``, with the same
/// timeline entry), with or without a server running; the app's App Store Server API key is the
/// configuration's.
struct SupportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support",
        abstract: "Support actions that ask Apple, as the admin API runs them.",
        subcommands: [SetAppAccountToken.self, ReadAppTransaction.self]
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
            try await app.withDependencies(transport: AsyncHTTPClientTransport(), label: "perennial.support") { dependencies, app in
                let set = try await dependencies.perform(
                    PerennialServer.SetAppAccountToken(originalTransactionID: purchase, reason: by.reason, app: app), by: by.actingKey)
                print(
                    "purchase \(purchase) of \(set.answer.subscriber.appUserID) now carries app account token \(set.token.uuidString.lowercased()) at Apple")
            }
        }
    }

    struct ReadAppTransaction: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read-app-transaction",
            abstract: "Read the owner's original app purchase from Apple by one of the owner's purchases (Get App Transaction Info) and keep it.",
            discussion: "For an app gone from paid to free whose customer's device never posted its app transaction: docs/operations.md.")

        @Option(help: "The purchase's original transaction id; its owner's app purchase is read.")
        var purchase: String

        @OptionGroup var by: OperatorOptions

        @OptionGroup var app: AppOptions

        func run() async throws {
            try await app.withDependencies(transport: AsyncHTTPClientTransport(), label: "perennial.support") { dependencies, app in
                let answer = try await dependencies.perform(
                    PerennialServer.ReadAppTransaction(originalTransactionID: purchase, reason: by.reason, app: app), by: by.actingKey)
                let kept = answer.subscriber.originalAppPurchase
                print(
                    "\(answer.subscriber.appUserID) first got the app in version \(kept?.originalApplicationVersion ?? "?") on \(kept.map { $0.originalPurchaseDate.formatted(.iso8601) } ?? "?")")
            }
        }
    }
}
