import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A browser's side of the dashboard, in-process: the session cookie it holds and the CSRF token
/// of the pages it was served.
struct DashboardClient {
    let client: any TestClientProtocol
    let session: String
    let csrfToken: String

    /// Signs in with `key` and reads the CSRF token from the overview's sign-out form.
    static func signIn(_ client: any TestClientProtocol, key: String) async throws -> DashboardClient {
        let response = try await client.signIn(key: key)
        let session = try #require(sessionCookie(from: response), "sign-in answered \(response.status)")
        let page = try await client.execute(uri: "/dashboard", method: .get, headers: [.cookie: "perennial_session=\(session)"])
        let token = try #require(csrfToken(in: page.text), "no CSRF token on the overview")
        return DashboardClient(client: client, session: session, csrfToken: token)
    }

    func get(_ path: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: [.cookie: "perennial_session=\(session)"])
    }

    func post(_ path: String, form: [String: String], origin: String? = nil, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: "perennial_session=\(session)", .contentType: "application/x-www-form-urlencoded"]
        if let origin { headers[.origin] = origin }
        headers.append(contentsOf: extra)
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: Self.encode(form)))
    }

    static func sessionCookie(from response: TestResponse) -> String? {
        guard let header = response.headers[.setCookie], header.hasPrefix("perennial_session=") else { return nil }
        let value = header.dropFirst("perennial_session=".count).prefix { $0 != ";" }
        return value.isEmpty ? nil : String(value)
    }

    static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static func encode(_ form: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
    }
}

extension TestClientProtocol {
    func signIn(key: String, next: String = "/dashboard", headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers.append(contentsOf: extra)
        return try await execute(
            uri: "/dashboard/sign-in", method: .post, headers: headers, body: ByteBuffer(string: DashboardClient.encode(["key": key, "next": next])))
    }
}
