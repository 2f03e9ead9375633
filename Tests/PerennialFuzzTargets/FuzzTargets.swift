import Crypto
import Foundation
import Hummingbird
import PerennialAppStore
import PerennialCore
import PerennialWire
@testable import PerennialServer

/// Every parser of data that reaches the server from outside, as a fuzz target, each called
/// through the entry point its route or job calls: app receipts, compact JWS and the JSON signed
/// inside them, Apple's notification, retention and Server API bodies, the client routes' request
/// bodies, offerings and experiments as operators write them and apps ask for them, app-user tokens, the dashboard's forms, and the CSV files an import reads.
public enum FuzzTargets {
    /// The targets, verifying signed evidence against `setup`'s roots.
    public static func all(_ setup: FuzzSetup) throws -> [FuzzTarget] {
        let sandbox = try SignedDataVerifier(trustedRoots: [setup.jwsRoot], bundleID: FuzzSetup.bundleID, environment: .sandbox)
        let verifier = AppEvidenceVerifier(
            appID: "fuzz", bundleID: FuzzSetup.bundleID, environments: [.sandbox], signedData: [.sandbox: sandbox],
            sharedSecret: FuzzSetup.sharedSecret, receipts: .local(AppReceiptVerifier(trustedRoots: [setup.receiptRoot])))
        return [
            appReceipt(AppReceiptVerifier(trustedRoots: [setup.receiptRoot])),
            compactJWS(JWSVerifier(trustedRoots: [setup.jwsRoot])),
            signedPayloadJSON(),
            FuzzTarget("notificationV2Body") { input in
                await .of { () async throws(EvidenceError) in _ = try await verifier.notificationV2(body: input) }
            },
            FuzzTarget("notificationV1Body") { input in
                await .of { () throws(EvidenceError) in _ = try verifier.notificationV1(body: input, receivedAt: FuzzSetup.now) }
            },
            FuzzTarget("retentionRequestBody") { input in
                await .of { () async throws(EvidenceError) in _ = try await verifier.realtimeRequest(body: input) }
            },
            FuzzTarget("serverAPIStatuses") { input in
                await .of { () async throws(EvidenceError) in _ = try await verifier.subscriptionStatuses(input, fallback: .sandbox) }
            },
            clientRequestBodies(),
            offerings(),
            experiments(),
            userToken(),
            // `perennial import` (and the admin API's imports) read a previous backend's CSV in each
            // format, a chunk at a time: a file cut anywhere must read as the file whole.
            FuzzTarget("importCSV") { input in
                var verdicts: [FuzzVerdict] = [chunkedCSV(input)]
                for format in ImportInput.Format.allCases {
                    verdicts.append(await .of { () throws(ImportInput.Unusable) in _ = try ImportInput.csv(input, format: format) })
                }
                return .combined(verdicts)
            },
            // The dashboard reads every form and query with this decoder, into these fields.
            FuzzTarget("dashboardForm") { input in
                await .of(refusing: [URLEncodedFormError.self, DecodingError.self]) {
                    _ = try URLEncodedFormDecoder().decode([String: String].self, from: String(decoding: input, as: UTF8.self))
                }
            },
        ]
    }

    /// Whether `input` reads alike fed whole and cut into chunks of a byte and of seven bytes (cuts
    /// inside a quoted field, between CR and LF, inside a UTF-8 character): the same records on the
    /// same lines, or the same refusal.
    static func chunkedCSV(_ input: Data) -> FuzzVerdict {
        func read(_ chunkBytes: Int) -> String {
            var parser = CSVRows(maxRecordBytes: ImportRows.maxRecordBytes)
            var records: [String] = []
            do {
                var offset = input.startIndex
                while offset < input.endIndex {
                    let end = min(input.endIndex, offset + chunkBytes)
                    try parser.feed(input[offset..<end]) { records.append("\($0.line):\($0.fields)") }
                    offset = end
                }
                try parser.finish { records.append("\($0.line):\($0.fields)") }
                return records.joined(separator: "\n")
            } catch {
                return "refused: \(error)"
            }
        }
        let whole = read(max(1, input.count))
        for chunkBytes in [1, 7] where read(chunkBytes) != whole {
            return .unexpected("CSVRows reads the input differently cut into chunks of \(chunkBytes) bytes")
        }
        return whole.hasPrefix("refused: ") ? .refused : .accepted
    }

    /// A receipt's bytes (DER, or base64 as an app posts it; PKCS#7 or an iOS 6 plist), its
    /// signature chain and its records.
    static func appReceipt(_ verifier: AppReceiptVerifier) -> FuzzTarget {
        FuzzTarget("appReceipt") { input in
            await .of { () async throws(ReceiptError) in
                switch try ReceiptDocument.decode(input) {
                case .appReceipt(let parsed):
                    // Before the signature check, which a mutation nearly always breaks: the
                    // records' normalization sees the mutated attributes too.
                    _ = try parsed.receipt.evidenceRecords()
                    _ = try await verifier.verify(parsed).evidenceRecords()
                case .transactionReceipt(let receipt):
                    _ = try receipt.evidenceRecords()
                }
            }
        }
    }

    /// A compact JWS: its three segments, the header and the payload's environment and
    /// `signedDate`, the chain and the signature.
    static func compactJWS(_ verifier: JWSVerifier) -> FuzzTarget {
        FuzzTarget("compactJWS") { input in
            let compact = String(decoding: input, as: UTF8.self)
            _ = AppEvidenceVerifier.claimedEnvironment(of: compact)
            return .combined([
                await .of { () throws(JWSVerificationError) in _ = try JWSDecoding.parts(of: compact) },
                await .of { () async throws(JWSVerificationError) in _ = try await verifier.verify(compact) },
            ])
        }
    }

    /// The JSON a JWS signs, read as each payload Apple signs and normalized into records, and the
    /// fields read before the typed decoding.
    static func signedPayloadJSON() -> FuzzTarget {
        FuzzTarget("signedPayloadJSON") { input in
            func decoded(_ read: (JSONDecoder) throws -> Void) async -> FuzzVerdict {
                await .of(refusing: [DecodingError.self, NormalizationError.self]) { try read(JSONDecoder()) }
            }
            return .combined([
                await decoded { _ = try $0.decode(JWSTransactionDecodedPayload.self, from: input).transaction(source: .signedTransaction) },
                await decoded { _ = try $0.decode(JWSRenewalInfoDecodedPayload.self, from: input).renewalInfo(source: .notificationV2) },
                await decoded { _ = try $0.decode(ResponseBodyV2DecodedPayload.self, from: input) },
                await decoded { _ = try $0.decode(AppTransaction.self, from: input) },
                await decoded { _ = try $0.decode(DecodedRealtimeRequestBody.self, from: input) },
                await .of { () throws(JSONFieldPeek.Failure) in
                    _ = try JSONFieldPeek.number(at: ["signedDate"], in: input)
                    _ = try JSONFieldPeek.firstString(at: [["data", "environment"], ["environment"]], in: input)
                },
            ])
        }
    }

    /// The bodies of the client routes, read as the routes read them.
    static func clientRequestBodies() -> FuzzTarget {
        FuzzTarget("clientRequestBodies") { input in
            func body<Body: Decodable>(_ type: Body.Type) async -> FuzzVerdict {
                await .of { () throws(EvidenceError) in _ = try JSONResponse.decode(type, from: input) }
            }
            return .combined([
                await body(ReceiptRequest.self), await body(SignedTransactionRequest.self), await body(AppTransactionRequest.self),
                await body(EligibilityRequest.self), await body(ConsumptionReportRequest.self), await body(OfferSignatureRequest.self),
            ])
        }
    }

    /// An offering as an operator sends it (the admin API's body read strictly, its metadata and
    /// targeting checked as adding one checks them), and the input's first two lines as the
    /// storefront and app version an app asks for its offerings with.
    static func offerings() -> FuzzTarget {
        FuzzTarget("offerings") { input in
            let body = await FuzzVerdict.of(refusing: [APIError.self, OfferingError.self]) {
                let request = try JSONResponse.decodeStrictly(OfferingRequest.self, from: input)
                _ = try OfferingActions.metadata(request.metadata ?? [:], limit: ServerLimits().maxOfferingMetadataBytes)
                _ = try OfferingActions.targeting(request.targeting)
            }
            let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let query = await FuzzVerdict.of { () throws(APIError) in
                _ = try ClientRoutes.offeringContext(storefront: lines.first.map(String.init), appVersion: lines.dropFirst().first.map(String.init))
            }
            return .combined([body, query])
        }
    }

    /// An experiment as an operator sends it: the admin API's body read strictly, its variants
    /// and audience checked as adding one checks them, and a roll-out's body.
    static func experiments() -> FuzzTarget {
        FuzzTarget("experiments") { input in
            let draft = await FuzzVerdict.of(refusing: [APIError.self, ExperimentError.self, OfferingError.self]) {
                let request = try JSONResponse.decodeStrictly(ExperimentRequest.self, from: input)
                _ = try ExperimentActions.variants(request.variants, offerings: ["default", "pro"], limit: ServerLimits().maxExperimentVariants, appID: "fuzz")
                _ = try OfferingActions.targeting(request.audience)
            }
            let rollout = await FuzzVerdict.of { () throws(APIError) in _ = try JSONResponse.decodeStrictly(ExperimentRolloutRequest.self, from: input) }
            return .combined([draft, rollout])
        }
    }

    /// An app-user token as sent, and the input signed as a token's claims, so that the claims are
    /// read past a signature that checks out (a mutated token's signature never does).
    static func userToken() -> FuzzTarget {
        let key = P256.Signing.PrivateKey()
        let verifier = UserTokenVerifier(hmacSecret: Array(FuzzSetup.userTokenSecret.utf8), publicKey: key.publicKey)
        return FuzzTarget("userToken") { input in
            func verified(_ token: String) async -> FuzzVerdict {
                await .of { () throws(AuthError) in try verifier.verify(token, user: FuzzSetup.user, now: FuzzSetup.now) }
            }
            let claims = (try? JWSSigning.sign(headerJSON: Data(#"{"alg":"ES256"}"#.utf8), payloadJSON: input, key: key)) ?? ""
            return .combined([await verified(String(decoding: input, as: UTF8.self)), await verified(claims)])
        }
    }
}
