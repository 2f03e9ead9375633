import Foundation
import Hummingbird
import PerennialWire

/// JSON in and out of the simulator's HTTP API, in the server's conventions (``WireJSON``: ISO 8601
/// dates with milliseconds in UTC, sorted keys) and with its `{"error", "message"}` body
/// (``ErrorBody``) on every 4xx/5xx, so the SDK reads both peers alike.
enum SimulatorJSON {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            return raw(try WireJSON.encoder().encode(value), status: status)
        } catch {
            return self.error(status: .internalServerError, code: "encodingFailed", message: "cannot encode the answer: \(error)")
        }
    }

    /// A body that is already JSON (Apple's own wire models, encoded as Apple spells them).
    static func raw(_ body: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/json") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func error(status: HTTPResponse.Status, code: String, message: String) -> Response {
        response(ErrorBody(error: code, message: message), status: status)
    }

    /// The request body, up to 4 MiB.
    static func body(of request: Request) async throws -> Data {
        var request = request
        let buffer = try await request.collectBody(upTo: 4 * 1024 * 1024)
        return Data(buffer.readableBytesView)
    }

    /// Decodes the request body as `type`; a body that does not decode is the client's mistake.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let data = try await body(of: request)
        do {
            return try WireJSON.decoder().decode(type, from: data)
        } catch {
            throw SimulatorHTTPError.badBody("\(error)")
        }
    }
}

/// Why the HTTP layer refused a request before it reached the simulator.
enum SimulatorHTTPError: Error, CustomStringConvertible {
    case badBody(String)

    var description: String {
        switch self {
        case .badBody(let reason): "the request body is not valid JSON for this endpoint: \(reason)"
        }
    }
}
