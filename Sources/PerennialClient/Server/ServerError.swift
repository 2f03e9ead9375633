/// Why a request to the Perennial server (or the simulator) did not produce an answer.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request never got an HTTP answer: no network, DNS, refused connection, timeout.
    case unreachable(String)
    /// The peer answered with a non-2xx status; `code` and `message` are its `{"error","message"}`.
    case http(status: Int, code: String?, message: String?)
    /// A 2xx answer whose body is not the JSON the contract promises.
    case decoding(String)
    /// The request could not even be built (for example an unusable URL).
    case invalidRequest(String)
    /// Signed answers are configured and this answer's signature is missing or does not verify:
    /// something between the device and the server (a proxy) changed or forged it. Nothing in it
    /// was used.
    case unverifiedAnswer(String)

    /// Whether trying again later can succeed: transport failures, 5xx, 408 and 429.
    ///
    /// Other 4xx answers will most likely repeat, but a journaled purchase is retried anyway (at the
    /// backoff's longest interval) because dropping a paid purchase is worse than a useless request.
    public var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .http(let status, _, _): status >= 500 || status == 408 || status == 429
        case .decoding, .invalidRequest, .unverifiedAnswer: false
        }
    }

    /// Names the failure and what the peer said.
    public var description: String {
        switch self {
        case .unreachable(let reason): "server unreachable: \(reason)"
        case .http(let status, let code, let message):
            "server answered HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
        case .decoding(let reason): "server answer not understood: \(reason)"
        case .invalidRequest(let reason): "request could not be built: \(reason)"
        case .unverifiedAnswer(let reason): "server answer refused: \(reason)"
        }
    }
}
