import ArgumentParser
import Foundation
import PerennialAppStore
import X509

/// `perennial receipt …`: legacy receipts (PKCS#7 app receipts and iOS 6 transaction receipts).
struct ReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Decode and verify App Store receipts.",
        subcommands: [ReceiptDecodeCommand.self]
    )
}

/// `perennial receipt decode FILE|- [--root FILE]…`
struct ReceiptDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print every decoded field of an app receipt or an iOS 6 transaction receipt as JSON.",
        discussion: """
            The input is base64 text (as an app sends it in receipt-data) or raw DER/BER bytes. With \
            --root, the signature and certificate chain are verified against those roots too; the \
            command then exits 1 when the receipt does not verify.
            """
    )

    @Argument(help: "The receipt file, or - for standard input.")
    var input: String

    @Option(name: .customLong("root"), help: "A trusted root certificate (DER or PEM); repeatable.")
    var roots: [String] = []

    func run() async throws {
        let document = try ReceiptDocument.decode(InputFile.read(input))
        var output = ReceiptDecodeOutput(document: document)
        if !roots.isEmpty {
            output.verification = await verify(document, roots: try TrustedRoots.load(paths: roots))
        }
        try JSONOutput.print(output)
        if let verification = output.verification, !verification.verified {
            throw ExitCode(1)
        }
    }

    private func verify(_ document: ReceiptDocument, roots: [Certificate]) async -> VerificationDecision {
        switch document {
        case .transactionReceipt:
            return VerificationDecision(verified: false, reason: "iOS 6 transaction receipt signatures are not verified locally; send the receipt to verifyReceipt")
        case .appReceipt(let parsed):
            do {
                let verified = try await AppReceiptVerifier(trustedRoots: roots).verify(parsed)
                return VerificationDecision(verified: true, chain: verified.chain.map { "\($0.subject)" }, validationTime: verified.validationTime)
            } catch {
                return VerificationDecision(verified: false, reason: "\(error)")
            }
        }
    }
}

/// The JSON `receipt decode` prints.
private struct ReceiptDecodeOutput: Encodable {
    var kind: String
    var appReceipt: AppReceipt?
    var transactionReceipt: TransactionReceipt?
    var verification: VerificationDecision?

    init(document: ReceiptDocument) {
        switch document {
        case .appReceipt(let parsed):
            kind = "appReceipt"
            appReceipt = parsed.receipt
        case .transactionReceipt(let receipt):
            kind = "transactionReceipt"
            transactionReceipt = receipt
        }
    }
}

/// A verification decision as printed by the CLI.
struct VerificationDecision: Encodable {
    var verified: Bool
    var reason: String?
    var chain: [String]?
    var validationTime: Date?
}
