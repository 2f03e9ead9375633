import PerennialWire
import Crypto
import HTTPTypes
import Foundation
import Hummingbird
import NIOCore
import PerennialAppStore

/// JSON bodies in and out of the routes, in the API's format (``APIJSON``).
enum JSONResponse {

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data: Data
        do {
            data = try WireJSON.encoder().encode(value)
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

    /// The whole request body, up to the context's ``PerennialRequestContext/maxUploadSize``
    /// (`limits.maxBodyBytes`).
    static func body(of request: Request, context: PerennialRequestContext) async throws(APIError) -> Data {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: context.maxUploadSize)
            return Data(buffer.readableBytesView)
        } catch {
            throw BodyLimitMiddleware.tooLarge(context.maxUploadSize)
        }
    }

    /// The request body decoded as `type`; anything else is ``EvidenceError/malformedRequest(_:)``.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: PerennialRequestContext) async throws(APIError) -> T {
        let data = try await body(of: request, context: context)
        do throws(EvidenceError) {
            return try decode(type, from: data)
        } catch {
            throw APIError(error)
        }
    }

    /// An optional JSON body: none is nil, a malformed one is refused.
    static func decodeOptional<T: Decodable>(_ type: T.Type, from request: Request, context: PerennialRequestContext) async throws(APIError) -> T? {
        let data = try await body(of: request, context: context)
        guard !data.isEmpty else { return nil }
        do throws(EvidenceError) {
            return try decode(type, from: data)
        } catch {
            throw APIError(error)
        }
    }

    /// An admin action's body, strictly: JSON by its `Content-Type` (415 otherwise), no key the
    /// action does not know (a typo such as `extendByDay` would otherwise be dropped and the action
    /// done with a default), and every string in it a bounded note (``TextInput/note(_:named:)``).
    static func decodeStrictly<T: Decodable>(_ type: T.Type, from request: Request, context: PerennialRequestContext) async throws(APIError) -> T {
        try requireJSON(request)
        return try decodeStrictly(type, from: try await body(of: request, context: context))
    }

    /// An optional admin body, strictly: none is nil.
    static func decodeStrictlyOptional<T: Decodable>(
        _ type: T.Type, from request: Request, context: PerennialRequestContext
    ) async throws(APIError) -> T? {
        let data = try await body(of: request, context: context)
        guard !data.isEmpty else { return nil }
        try requireJSON(request)
        return try decodeStrictly(type, from: data)
    }

    static func decodeStrictly<T: Decodable>(_ type: T.Type, from data: Data) throws(APIError) -> T {
        let value: T
        do throws(EvidenceError) {
            value = try decode(type, from: data)
        } catch {
            throw APIError(error)
        }
        let fields = Mirror(reflecting: value).children
        let known = Set(fields.compactMap(\.label))
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let unknown = object.keys.filter { !known.contains($0) }.sorted()
            guard unknown.isEmpty else {
                throw .malformed("the body has the unknown key \(unknown.joined(separator: ", ")); it takes \(known.sorted().joined(separator: ", "))")
            }
        }
        for field in fields {
            let strings: [String] =
                switch field.value {
                case let text as String: [text]
                case let text as String?: text.map { [$0] } ?? []
                case let texts as [String]: texts
                case let texts as [String]?: texts ?? []
                default: []
                }
            for text in strings { _ = try TextInput.note(text, named: field.label ?? "a field") }
        }
        return value
    }

    private static func requireJSON(_ request: Request) throws(APIError) {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupportedMediaType",
                message: "send the body as Content-Type: application/json (got \(type ?? "none"))")
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
