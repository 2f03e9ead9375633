import Foundation
import Hummingbird
import Logging

/// Hands `/inApps/...` requests to the App Store Server API responder: copies the HTTP request
/// into a plain ``ServerAPIRequest`` and the answer back, so the responder knows no framework.
/// A refused token is answered with Apple's bare 401 and its reason logged (notice), so whoever
/// points a client at the simulator sees why.
enum ServerAPIRouting {
    static func respond(to request: Request, simulator: AppStoreSimulator, logger: Logger) async -> Response {
        await RouteHandling.run {
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let components = URLComponents(string: request.uri.description)
            let apiRequest = ServerAPIRequest(
                method: request.method.rawValue, path: components?.percentEncodedPath ?? request.uri.path,
                queryItems: components?.queryItems ?? [], headers: headers, body: try await SimulatorJSON.body(of: request))
            let answer = await simulator.respond(toServerAPI: apiRequest)
            if answer.status == 401, let refusal = await simulator.serverAPIRefusal(authorization: apiRequest.header("Authorization")) {
                logger.notice("App Store Server API: 401 for \(request.method.rawValue) \(request.uri.path): \(refusal)")
            }
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let fieldName = HTTPFields.Element.Name(name) { fields[fieldName] = value }
            }
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
