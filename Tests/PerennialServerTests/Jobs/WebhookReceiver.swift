import Foundation
import PerennialAppStore
import PerennialServer

/// A webhook endpoint in memory, reached through the delivery job's transport: it can be down
/// (answering an HTTP error), refuse connections (the transport throws) or be up, and keeps every
/// delivery it accepted, so tests see exactly what a receiver would have stored.
actor WebhookReceiver: AppStoreHTTPTransport {
    enum Mode: Sendable {
        case up
        case down(status: Int)
        case refusing
    }

    struct Delivery: Sendable {
        let url: URL
        let body: Data
        let signature: String?
    }

    struct ConnectionRefused: Error {}

    private(set) var mode: Mode = .up
    private(set) var accepted: [Delivery] = []

    init(mode: Mode = .up) { self.mode = mode }

    func set(_ mode: Mode) { self.mode = mode }

    nonisolated func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        try await receive(request)
    }

    private func receive(_ request: AppStoreHTTPRequest) throws -> AppStoreHTTPResponse {
        switch mode {
        case .refusing:
            throw ConnectionRefused()
        case .down(let status):
            return AppStoreHTTPResponse(status: status)
        case .up:
            accepted.append(Delivery(url: request.url, body: request.body ?? Data(), signature: request.headers[WebhookSignature.headerName]))
            return AppStoreHTTPResponse(status: 204)
        }
    }
}
