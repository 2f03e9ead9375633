import Foundation
import PerennialAppStore
import PerennialCore

/// The Retention Messaging API: images, messages, default messages, the Get Retention Message
/// endpoint's URL and its performance test, kept in ``RetentionMessaging``.
extension ServerAPIResponder {
    func retentionMessaging(
        _ route: RetentionMessagingRoute, request: ServerAPIRequest, backend: any SimulatorBackend, now: Date
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        switch route {
        case .uploadImage(let id):
            try await retention.uploadImage(id, png: request.body)
            return .empty(status: 200)
        case .deleteImage(let id):
            try await retention.deleteImage(id)
            return .empty(status: 200)
        case .imageList:
            return .json(await retention.imageList)
        case .uploadMessage(let id):
            try await retention.uploadMessage(id, try decodeBody(UploadMessageRequestBody.self, from: request))
            return .empty(status: 200)
        case .deleteMessage(let id):
            try await retention.deleteMessage(id)
            return .empty(status: 200)
        case .messageList:
            return .json(await retention.messageList)
        case .configureDefaultMessage(let productID, let locale):
            let body = try decodeBody(DefaultConfigurationRequest.self, from: request)
            try await requireProduct(productID, backend: backend)
            try await retention.configureDefault(productID: productID, locale: locale, messageIdentifier: body.messageIdentifier)
            return .empty(status: 200)
        case .deleteDefaultMessage(let productID, let locale):
            try await retention.deleteDefault(productID: productID, locale: locale)
            return .empty(status: 200)
        case .defaultMessage(let productID, let locale):
            return .json(GetDefaultMessageResponse(messageIdentifier: try await retention.defaultMessageIdentifier(productID: productID, locale: locale)))
        case .configureRealtimeURL:
            try await retention.configureRealtimeURL(try decodeBody(RealtimeUrlRequest.self, from: request).realtimeURL, environment: environment)
            return .empty(status: 200)
        case .realtimeURL:
            guard let url = await retention.realtimeURL else { throw RetentionMessaging.realtimeURLNotFound }
            return .json(GetRealtimeURLResponse(realtimeURL: url.absoluteString))
        case .deleteRealtimeURL:
            try await retention.deleteRealtimeURL()
            return .empty(status: 200)
        case .initiatePerformanceTest:
            return .json(try await initiatePerformanceTest(request: request, backend: backend, now: now))
        case .performanceTestResult(let id):
            return .json(try await retention.performanceTest(id))
        }
    }

    private func requireProduct(_ productID: String, backend: any SimulatorBackend) async throws(ServerAPIFailure) {
        guard await backend.currentState().configuration.catalog.product(id: productID)?.type == .autoRenewable else {
            throw .badRequest(.invalidProductId, "Invalid product id.")
        }
    }

    /// Apple's test, in the sandbox only: requests about the given subscription, some at once,
    /// each judged against the time limit; it passes when enough answer in time.
    private func initiatePerformanceTest(
        request: ServerAPIRequest, backend: any SimulatorBackend, now: Date
    ) async throws(ServerAPIFailure) -> PerformanceTestResponse {
        guard environment == .sandbox else { throw .badRequest(.invalidPerformanceTestRequest, "Performance tests run in the sandbox only.") }
        let body: PerformanceTestRequest
        do { body = try JSONDecoder().decode(PerformanceTestRequest.self, from: request.body) } catch {
            throw .badRequest(.invalidPerformanceTestRequest, "The performance test request is invalid.")
        }
        guard let lifecycle = await backend.currentState().lifecycle(originalTransactionID: body.originalTransactionId) else {
            throw .originalTransactionIDNotFound
        }
        guard let url = await retention.realtimeURL else { throw RetentionMessaging.realtimeURLNotFound }
        let config = PerformanceTestConfig(
            maxConcurrentRequests: 5, totalRequests: 20, totalDuration: 60_000, responseTimeThreshold: 700, successRateThreshold: 95)
        let id = try await retention.startPerformanceTest(config: config, target: url)
        let call = RealtimeMessagingCall(pki: pki, environment: environment, appAppleID: appAppleID, timeout: .milliseconds(700))
        let store = retention
        let productID = lifecycle.latestTransaction.productID
        Task {
            let outcomes = await withTaskGroup(of: [RealtimeMessagingCall.Outcome].self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        var made: [RealtimeMessagingCall.Outcome] = []
                        for _ in 0..<4 {
                            made.append(await call.call(url, originalTransactionID: body.originalTransactionId, productID: productID, locale: "en-US", now: now))
                        }
                        return made
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            await store.finishPerformanceTest(id, Self.result(of: outcomes, config: config, target: url))
        }
        return PerformanceTestResponse(config: config, requestId: id)
    }

    static func result(of outcomes: [RealtimeMessagingCall.Outcome], config: PerformanceTestConfig, target: URL) -> PerformanceTestResultResponse {
        var failures: [String: Int] = [:]
        for case .failure(let failure) in outcomes.map(\.answer) { failures[failure.description, default: 0] += 1 }
        let succeeded = outcomes.count - failures.values.reduce(0, +)
        let rate = outcomes.isEmpty ? 0 : succeeded * 100 / outcomes.count
        let milliseconds = outcomes.map { Int($0.duration.components.seconds * 1000 + $0.duration.components.attoseconds / 1_000_000_000_000_000) }.sorted()
        func percentile(_ p: Int) -> Int { milliseconds.isEmpty ? 0 : milliseconds[min(milliseconds.count - 1, milliseconds.count * p / 100)] }
        return PerformanceTestResultResponse(
            config: config, target: target.absoluteString, result: rate >= (config.successRateThreshold ?? 100) ? "PASS" : "FAIL", successRate: rate,
            numPending: 0,
            responseTimes: PerformanceTestResponseTimes(
                average: milliseconds.isEmpty ? 0 : milliseconds.reduce(0, +) / milliseconds.count, p50: percentile(50), p90: percentile(90),
                p95: percentile(95), p99: percentile(99)),
            failures: failures)
    }
}
