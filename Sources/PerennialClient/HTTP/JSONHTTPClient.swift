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
    /// app user id may contain `/` or spaces), with `query` when it has items.
    func url(_ components: [String], query: [URLQueryItem] = []) throws(ServerError) -> URL {
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
        guard var url = URLComponents(string: text) else { throw .invalidRequest("'\(text)' is not a URL") }
        if !query.isEmpty { url.queryItems = query }
        guard let built = url.url else { throw .invalidRequest("'\(text)' is not a URL") }
        return built
    }

    /// Sends one request; `body` nil sends none. Answers with the raw body of a 2xx response.
    func send(
        _ method: String, _ components: [String], query: [URLQueryItem] = [], body: (some Encodable & Sendable)?, headers: [String: String] = [:]
    ) async throws(ServerError) -> Data {
        try await sendReadingHeader(method, components, query: query, body: body, headers: headers, header: nil).body
    }

    /// Sends one request and answers the raw body of a 2xx response with the value of `header`.
    func sendReadingHeader(
        _ method: String, _ components: [String], query: [URLQueryItem] = [], body: (some Encodable & Sendable)?,
        headers: [String: String] = [:], header: String?
    ) async throws(ServerError) -> (body: Data, header: String?) {
        var request = URLRequest(url: try url(components, query: query))
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
        let (data, response) = try await exchange(request)
        guard (200..<300).contains(response.statusCode) else {
            let failure = try? WireJSON.decoder().decode(ErrorBody.self, from: data)
            throw .http(status: response.statusCode, code: failure?.error, message: failure?.message)
        }
        return (data, header.flatMap { response.value(forHTTPHeaderField: $0) })
    }

    /// One HTTP exchange: the body and the response.
    private func exchange(_ request: URLRequest) async throws(ServerError) -> (Data, HTTPURLResponse) {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation's async `data(for:)` can deadlock when its task is cancelled
        // while the answer is being delivered: the cancellation holds the task's status lock and
        // waits for the session's queue, the delivery holds that queue and waits for the lock
        // (seen when `Perennial.stop()` cancelled a poll). The completion-handler API has no
        // cancellation hook: a cancelled caller gets the answer, or the request's timeout.
        let result: Result<(Data, HTTPURLResponse), ServerError> = await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(.unreachable(String(describing: error))))
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: .success((data ?? Data(), response)))
                } else {
                    continuation.resume(returning: .failure(.decoding("not an HTTP response")))
                }
            }.resume()
        }
        return try result.get()
        #else
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw .decoding("not an HTTP response") }
        return (data, http)
        #endif
    }

    /// Sends one request and decodes the 2xx answer as `Response`.
    func send<Response: Decodable>(
        _ method: String, _ components: [String], query: [URLQueryItem] = [], body: (some Encodable & Sendable)?,
        headers: [String: String] = [:], as type: Response.Type
    ) async throws(ServerError) -> Response {
        let data = try await send(method, components, query: query, body: body, headers: headers)
        do {
            return try WireJSON.decoder().decode(Response.self, from: data)
        } catch {
            throw .decoding("\(Response.self): \(error)")
        }
    }
}

/// A request without a body (`body: NoBody?.none`), spelled so call sites read clearly.
struct NoBody: Encodable, Sendable {}
