import ArgumentParser
import Foundation
import PerennialAppStore
import PerennialCore

/// `perennial jws …`: App Store signed data (transactions, renewal infos, notifications).
struct JWSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "Verify or decode App Store JWS (signed transactions, renewal infos, V2 notifications).",
        subcommands: [JWSVerifyCommand.self, JWSDecodeCommand.self]
    )
}

/// `perennial jws decode FILE|-`
struct JWSDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print a JWS payload as JSON, nested JWS decoded, WITHOUT verifying anything."
    )

    @Argument(help: "The compact JWS file, or - for standard input.")
    var input: String

    func run() async throws {
        let compact = try InputFile.text(input)
        // The payload alone: a header without x5c (or any header Apple would refuse) is for `verify` to judge.
        let payload = try await SignedPayloadJSON.expand(JWSDecoding.unverifiedPayload(of: compact)) { nested in
            try JWSDecoding.unverifiedPayload(of: nested)
        }
        try JSONOutput.print(jsonObject: payload)
    }
}

/// `perennial jws verify FILE|- --root FILE… [--bundle-id ID --environment E [--app-apple-id N]] [--at signed|now]`
struct JWSVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a JWS against trusted roots and print its payload as JSON (nested JWS verified and decoded).",
        discussion: """
            Exits 0 and prints the payload when the signature, the certificate chain (with Apple's \
            marker extensions) and, when given, the bundle id and environment check out; otherwise \
            prints the reason on standard error and exits 1.
            """
    )

    enum ValidationInstant: String, ExpressibleByArgument {
        case signed, now
    }

    @Argument(help: "The compact JWS file, or - for standard input.")
    var input: String

    @Option(name: .customLong("root"), help: "A trusted root certificate (DER or PEM); repeatable.")
    var roots: [String]

    @Option(name: .customLong("bundle-id"), help: "The bundle id the payload must belong to (with --environment).")
    var bundleID: String?

    @Option(help: "The environment the payload must come from: Production, Sandbox, Xcode, LocalTesting (with --bundle-id).")
    var environment: String?

    @Option(name: .customLong("app-apple-id"), help: "The app's Apple id, checked on production notifications.")
    var appAppleID: Int64?

    @Option(help: "Validate the certificate chain at the payload's signedDate (signed; now for a payload without one) or now.")
    var at: ValidationInstant = .signed

    func validate() throws {
        guard !roots.isEmpty else { throw ValidationError("at least one --root is required") }
        guard (bundleID == nil) == (environment == nil) else {
            throw ValidationError("--bundle-id and --environment go together")
        }
        // Spelled as Apple does: "prod" was taken, then every payload failed as the wrong environment.
        let environments = ["Production", "Sandbox", "Xcode", "LocalTesting"]
        if let environment, !environments.contains(environment) {
            throw ValidationError("--environment \(environment) is not one of \(environments.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let compact = try InputFile.text(input)
        let trusted = try TrustedRoots.load(paths: roots)
        // As Apple's libraries do, a payload without a signedDate (Apple's own test vectors) is
        // validated now; the server refuses one.
        let time: JWSValidationTime = at == .now || !Self.hasSignedDate(compact) ? .instant(Date()) : .signedDate
        do {
            let payload: Data
            if let bundleID, let environment {
                let verifier = try SignedDataVerifier(
                    trustedRoots: trusted,
                    bundleID: bundleID,
                    environment: AppStoreEnvironment(rawValue: environment),
                    appAppleID: appAppleID
                )
                payload = try await SignedPayloadKind.verify(compact, with: verifier, at: time)
            } else {
                payload = try await JWSVerifier(trustedRoots: trusted).verify(compact, at: time).payload
            }
            let jws = JWSVerifier(trustedRoots: trusted)
            let expanded = try await SignedPayloadJSON.expand(payload) { nested in
                try await jws.verify(nested, at: time).payload
            }
            try JSONOutput.print(jsonObject: expanded)
        } catch {
            FileHandle.standardError.write(Data("rejected: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private static func hasSignedDate(_ compact: String) -> Bool {
        guard let payload = try? JWSDecoding.unverifiedPayload(of: compact),
            let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
        else { return true }
        return object["signedDate"] != nil
    }
}

/// Which typed check applies to a payload, recognised from its keys.
enum SignedPayloadKind {
    /// Runs the typed check that fits the payload and returns the payload bytes it covered.
    static func verify(_ compact: String, with verifier: SignedDataVerifier, at time: JWSValidationTime) async throws -> Data {
        let payload = try JWSDecoding.unverifiedPayload(of: compact)
        let keys = try SignedPayloadJSON.keys(of: payload)
        if keys.contains("notificationType") {
            _ = try await verifier.verifyNotification(compact, at: time)
        } else if keys.contains("receiptType") {
            _ = try await verifier.verifyAppTransaction(compact, at: time)
        } else if keys.contains("bundleId") {
            // Transactions carry their bundle id; renewal infos do not.
            _ = try await verifier.verifyTransaction(compact, at: time)
        } else {
            _ = try await verifier.verifyRenewalInfo(compact, at: time)
        }
        return payload
    }
}
