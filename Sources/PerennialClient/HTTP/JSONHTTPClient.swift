import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends JSON requests and decodes JSON answers, turning every failure into a ``ServerError``.
/// Shared by the server client and the simulator store, whose peers speak the same conventions
/// (`{"error","message"}` bodies on failure).
struct JSONHTTPClient: Sendable {
    let baseURL: URL
    let session: URLSession

    /// The URL of `components` under the base URL, each percent-encoded as one path segment (an
    /// app user id may contain `/` or spaces).
    func url(_ components: [String]) throws(ServerError) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for component in components {
            guard let encoded = component.addingPercentEncoding(withAllowedCharacters: allowed) else {
                throw .invalidRequest("path component '\(component)' cannot be encoded")
            }
            text += "/" + encoded
        }
        guard let url = URL(string: text) else { throw .invalidRequest("'\(text)' is not a URL") }
        return url
    }

    /// Sends one request; `body` nil sends none. Answers with the raw body of a 2xx response.
    func send(
        _ method: String, _ components: [String], body: (some Encodable & Sendable)?, headers: [String: String] = [:]
    ) async throws(ServerError) -> Data {
        var request = URLRequest(url: try url(components))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            do {
                request.httpBody = try WireJSON.encoder().encode(body)
            } catch {
                throw .invalidRequest("body not encodable: \(error)")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw .decoding("not an HTTP response") }
        guard (200..<300).contains(http.statusCode) else {
            let failure = try? WireJSON.decoder().decode(ErrorBody.self, from: data)
            throw .http(status: http.statusCode, code: failure?.error, message: failure?.message)
        }
        return data
    }

    /// Sends one request and decodes the 2xx answer as `Response`.
    func send<Response: Decodable>(
        _ method: String, _ components: [String], body: (some Encodable & Sendable)?, headers: [String: String] = [:],
        as type: Response.Type
    ) async throws(ServerError) -> Response {
        let data = try await send(method, components, body: body, headers: headers)
        do {
            return try WireJSON.decoder().decode(Response.self, from: data)
        } catch {
            throw .decoding("\(Response.self): \(error)")
        }
    }

    /// The `{"error","message"}` body both peers send with a failure status.
    private struct ErrorBody: Decodable {
        let error: String?
        let message: String?
    }
}

/// A request without a body (`body: NoBody?.none`), spelled so call sites read clearly.
struct NoBody: Encodable, Sendable {}
