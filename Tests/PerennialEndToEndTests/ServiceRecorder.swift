import Foundation
import Hummingbird

/// Slack, Telegram, Amplitude and Mixpanel on one loopback port, for the integrations' end-to-end
/// test: each request is recorded as it arrived (path, headers, body) and answered as the service
/// answers success — unless the service is down, when it answers 503 and records nothing.
actor ServiceRecorder {
    /// One request as the service saw it.
    struct Request: Sendable {
        let service: String
        let path: String
        let headers: [String: String]
        let body: Data

        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
    }

    static let slackPath = "/services/T000/B000/XXXX"
    static let telegramToken = "123456:ABC-token"

    private(set) var requests: [Request] = []
    private(set) var refused: [String: Int] = [:]
    private var down: Set<String> = []

    func setDown(_ services: Set<String>) { down = services }

    func requests(to service: String) -> [Request] { requests.filter { $0.service == service } }

    /// Whether each of `services` has received exactly `count` requests.
    func haveEach(_ services: [String], count: Int) -> Bool { services.allSatisfy { requests(to: $0).count == count } }

    /// The service a path belongs to and its success answer.
    private static func service(of path: String) -> (name: String, answer: String)? {
        switch path {
        case slackPath: ("slack", "ok")
        case "/bot\(telegramToken)/sendMessage": ("telegram", #"{"ok":true,"result":{"message_id":1}}"#)
        case "/2/httpapi": ("amplitude", #"{"code":200,"events_ingested":1}"#)
        case "/import": ("mixpanel", #"{"code":200,"num_records_imported":1,"status":"OK"}"#)
        default: nil
        }
    }

    private func arrived(_ service: String, path: String, headers: [String: String], body: Data) -> Bool {
        guard !down.contains(service) else {
            refused[service, default: 0] += 1
            return false
        }
        requests.append(Request(service: service, path: path, headers: headers, body: body))
        return true
    }

    nonisolated func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("**") { request, _ -> Response in
            guard let (service, answer) = Self.service(of: request.uri.path) else { return Response(status: .notFound) }
            let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            headers["query"] = request.uri.query ?? ""
            guard await self.arrived(service, path: request.uri.path, headers: headers, body: body) else {
                return Response(status: .serviceUnavailable)
            }
            return Response(
                status: .ok, headers: [.contentType: service == "slack" ? "text/plain" : "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        }
        return Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
    }
}
