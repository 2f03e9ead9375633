import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The client key is read from `Authorization: Bearer <key>` as HTTP writes it: the scheme in any
/// case, the key with spaces or tabs around it; anything else is 401 with nothing read.
struct BearerKeyTests {
    @Test func theSchemeIsCaseInsensitiveAndTheKeyIsTrimmed() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            for header in ["Bearer \(ServerHarness.publicKey)", "bearer \(ServerHarness.publicKey)", "BEARER \t\(ServerHarness.publicKey) "] {
                let status = try await Self.read(client, authorization: header)
                #expect(status == .ok, "\(header)")
            }
        }
    }

    @Test func otherSchemesAndKeysAreRefused() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let key = ServerHarness.publicKey
            for header in ["Basic \(key)", "Bearer", "Bearer ", "Bearer   ", "Bearer\(key)", "Bearer \(key)x", "Bearer x\(key)", "Bearer \(ServerHarness.adminKey)"] {
                let status = try await Self.read(client, authorization: header)
                #expect(status == .unauthorized, "\(header)")
            }
        }
    }

    private static func read(_ client: some TestClientProtocol, authorization: String) async throws -> HTTPResponse.Status {
        var headers = HTTPFields()
        headers[.authorization] = authorization
        return try await client.execute(uri: "/v1/subscribers/alice", method: .get, headers: headers, body: nil).status
    }
}
