public import Foundation

/// The simulator's answer to one ``ServerAPIRequest``, as Apple would send it: a JSON body for
/// successes and for Apple's error bodies, no body at all for a refused token.
public struct ServerAPIResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields to send (`Content-Type` when there is a body).
    public var headers: [String: String]
    /// The body bytes, possibly empty.
    public var body: Data

    /// A response with the given parts.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer; keys are sorted so the same state always gives the same bytes.
    static func json(_ value: some Encodable, status: Int = 200) -> ServerAPIResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            // Apple's models always encode; reaching this is a simulator bug, reported as Apple would.
            return ServerAPIFailure.internalError("the answer could not be encoded").response
        }
        return ServerAPIResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// An answer without a body (Apple's 200/202 for PUTs, and 401 for a bad token).
    static func empty(status: Int) -> ServerAPIResponse {
        ServerAPIResponse(status: status)
    }
}
