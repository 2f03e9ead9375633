import Foundation
import Hummingbird

/// JSON in and out of the simulator's HTTP API: ISO 8601 dates with milliseconds in UTC (`Z`),
/// sorted keys, and the `{"error", "message"}` body every 4xx/5xx carries.
enum SimulatorJSON {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        do {
            return raw(try encoder.encode(value), status: status)
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
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return date
        }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw SimulatorHTTPError.badBody("\(error)")
        }
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    struct ErrorBody: Encodable {
        let error: String
        let message: String
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
