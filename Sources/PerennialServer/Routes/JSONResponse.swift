import Crypto
import HTTPTypes
import Foundation
import Hummingbird
import NIOCore
import PerennialAppStore

/// JSON bodies in and out of the routes, in the API's format (``APIJSON``).
enum JSONResponse {
    /// The largest request body accepted: receipts of long-lived subscribers reach a few hundred KB.
    static let maximumBodySize = 4 * 1024 * 1024

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data: Data
        do {
            data = try APIJSON.encoder().encode(value)
        } catch {
            data = Data(#"{"error":"encodingFailed","message":"the answer could not be encoded"}"#.utf8)
            return raw(data, status: .internalServerError)
        }
        return raw(data, status: status)
    }

    /// The subscriber answer, written by hand (``SubscriberResponse/apiJSON()``): it answers every
    /// read and every purchase.
    static func make(_ value: SubscriberResponse, status: HTTPResponse.Status = .ok) -> Response {
        raw(value.apiJSON(), status: status)
    }

    /// The subscriber answer signed with the app's answer key, when it has one: Ed25519 over the
    /// exact body bytes, base64 in `X-Perennial-Signature` (what the SDK verifies).
    static func make(_ value: SubscriberResponse, signedBy app: AppContext) -> Response {
        let body = value.apiJSON()
        var response = raw(body, status: .ok)
        if let signer = app.answerSigner, let signature = try? signer.signature(for: body) {
            response.headers[answerSignature] = Data(signature).base64EncodedString()
        }
        return response
    }

    /// The answer-signature header.
    static let answerSignature = HTTPField.Name("X-Perennial-Signature")!

    static func raw(_ bytes: some Sequence<UInt8>, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The whole request body.
    static func body(of request: Request) async throws(APIError) -> Data {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: maximumBodySize)
            return Data(buffer.readableBytesView)
        } catch {
            throw APIError(status: .contentTooLarge, code: "bodyTooLarge", message: "the body exceeds \(maximumBodySize) bytes")
        }
    }

    /// The request body decoded as `type`; anything else is ``EvidenceError/malformedRequest(_:)``.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T {
        let data = try await body(of: request)
        do throws(EvidenceError) {
            return try decode(type, from: data)
        } catch {
            throw APIError(error)
        }
    }

    /// An optional JSON body: none is nil, a malformed one is refused.
    static func decodeOptional<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T? {
        let data = try await body(of: request)
        guard !data.isEmpty else { return nil }
        do throws(EvidenceError) {
            return try decode(type, from: data)
        } catch {
            throw APIError(error)
        }
    }

    /// `data` decoded as `type`, or ``EvidenceError/malformedRequest(_:)`` saying where it is not one.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(EvidenceError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .malformedRequest(Self.describe(error))
        }
    }

    /// What is wrong with a body, in the terms of its JSON (an object, a string, a key), not of
    /// the Swift type it decodes into, which a client never sees.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the body could not be read: \(error)" }
        func place(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "the top level" }
            return path.reduce("") { place, key in key.intValue.map { "\(place)[\($0)]" } ?? (place.isEmpty ? key.stringValue : "\(place).\(key.stringValue)") }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the body lacks the key \(key.stringValue)" + (context.codingPath.isEmpty ? "" : " in \(place(context.codingPath))")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "expected \(jsonKind(type)) at \(place(context.codingPath)) of the body"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(context.debugDescription) (at \(place(context.codingPath)))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        default: "a value"
        }
    }
}
