import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialServer
import PerennialTestSupport
import Testing

// Golden files of the server's wire live in Golden/ beside this file; regenerate them with
//   PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden

extension GoldenNormalization {
    /// What changes between runs of the server tests, and only that: ECDSA signatures of this
    /// run's keys (`signature` of an offer), raw evidence signed by this run's PKI (`rawBase64`),
    /// the webhook signature header (a wall-clock timestamp; the tests verify it instead) and
    /// random UUIDs (app account tokens, offer nonces).
    static let server = GoldenNormalization(
        keys: ["signature": "<signature>", "compactJWS": "<jws>", "rawBase64": "<base64>", "Perennial-Signature": "<signature>"],
        patterns: [(GoldenNormalization.uuidPattern, "<uuid>")])
}

extension GoldenFiles {
    /// The server tests' golden files: `Tests/PerennialServerTests/Golden/`.
    static let server = GoldenFiles(normalization: .server)

    /// Records an issue at the caller with the diff when `value` does not match the golden file
    /// `name` (and goes on, so one run shows every diff).
    func expect(_ value: Any, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let mismatch = try mismatch(value, named: name) {
            Issue.record(Comment(rawValue: mismatch.description), sourceLocation: sourceLocation)
        }
    }

    /// Checks an HTTP answer as a whole: the request it answers (for the reader), its status,
    /// content type and JSON body (`null` when empty).
    func expect(_ response: TestResponse, request: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = Data(response.body.readableBytesView)
        let answer: [String: Any] = [
            "request": request,
            "status": Int(response.status.code),
            "contentType": response.headers[.contentType].map { $0 as Any } ?? NSNull(),
            "body": data.isEmpty ? NSNull() : try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
        ]
        try expect(answer, named: name, sourceLocation: sourceLocation)
    }
}

extension TestClientProtocol {
    /// Sends a request as ``send(_:_:key:userToken:body:)`` does and checks its answer against the
    /// golden file `name`.
    @discardableResult
    func golden(
        _ name: String, _ method: HTTPRequest.Method, _ uri: String, key: String? = ServerHarness.publicKey, body: Data? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let response = try await send(method, uri, key: key, body: body)
        try GoldenFiles.server.expect(response, request: "\(method.rawValue) \(uri)", named: name, sourceLocation: sourceLocation)
        return response
    }
}
