import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PerennialSimulator

/// Runs one load test: a warm-up that creates what the scenario reads, then timed phases at the
/// same concurrency that alternate the trivial route (`/health/live`) and the scenario for
/// `rounds` rounds, so the scenario is judged against HTTP itself on the same machine, server and
/// run, under the same stolen CPU.
///
/// Each worker keeps one request in flight and records latencies in its own preallocated array;
/// signing a request happens before its clock starts, so latency is the server's answer time.
public struct LoadRunner: Sendable {
    /// What to run.
    public let options: LoadOptions
    /// Mints the signed requests.
    public let traffic: LoadTraffic

    /// A runner.
    public init(options: LoadOptions, traffic: LoadTraffic) {
        self.options = options
        self.traffic = traffic
    }

    /// Warms up, measures both phases and returns them side by side.
    ///
    /// - Throws: ``LoadError`` when the warm-up is refused; failures during the timed phases are
    ///   counted as errors instead.
    public func run() async throws -> LoadComparison {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(options.concurrency, 8))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let comparison = try await measure(client: client)
            try await client.shutdown()
            return comparison
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Measures with the webhook receiver listening when the options ask for one.
    private func measure(client: HTTPClient) async throws -> LoadComparison {
        var receiver: (tally: WebhookTally, endpoint: WebhookReceiver)?
        if let port = options.webhookPort {
            let tally = WebhookTally()
            receiver = (tally, try await WebhookReceiver.start(port: port, tally: tally))
        }
        do {
            let comparison = try await warmUpAndMeasure(client: client, webhooks: receiver?.tally)
            await receiver?.endpoint.stop()
            return comparison
        } catch {
            await receiver?.endpoint.stop()
            throw error
        }
    }

    private func warmUpAndMeasure(client: HTTPClient, webhooks tally: WebhookTally?) async throws -> LoadComparison {
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let users = (0..<max(options.users, 1)).map { "load-\(run)-\($0)" }
        let originals = users.map { _ in LoadTraffic.newOriginalTransactionID() }
        switch options.scenario {
        case .reads, .mixed, .renewals, .retention: try await createSubscribers(users, originals: originals, client: client)
        case .receipts, .notifications: break
        }
        let receipts = options.scenario == .receipts ? try await buyReceipts(users, client: client) : []
        let requests = ScenarioRequests(runner: self, run: run, users: users, originals: originals, receipts: receipts)
        let trivial = PhaseSamples(workers: options.concurrency)
        let measured = PhaseSamples(workers: options.concurrency)
        var minted = [MintedBodies](repeating: MintedBodies(), count: options.concurrency)
        var mostInARound = 0
        for _ in 0..<options.rounds {
            await phase(client: client, into: trivial) { worker, _ in request(.GET, worker, "health/live") }
            let before = measured.nextIndices
            minted = try await topUp(minted, from: before, count: max(options.premint / max(options.concurrency, 1), mostInARound * 3 / 2), requests)
            let round = minted
            await phase(client: client, into: measured) { worker, index in try requests.request(worker, index, minted: round[worker]) }
            mostInARound = max(mostInARound, zip(measured.nextIndices, before).map { $0 - $1 }.max() ?? 0)
        }
        let summary = measured.summary()
        var webhooks: WebhookFigures?
        if let tally { webhooks = await Self.webhookFigures(tally, accepted: summary.requests - summary.errors) }
        return LoadComparison(scenario: options.scenario, trivial: trivial.summary(), measured: summary, webhooks: webhooks)
    }

    /// Waits (up to a minute) for the `accepted` renewal events to reach the receiver and says
    /// how far behind delivery was when the last round ended.
    private static func webhookFigures(_ tally: WebhookTally, accepted: Int) async -> WebhookFigures {
        let clock = ContinuousClock()
        let end = clock.now
        while tally.count < accepted, clock.now - end < .seconds(60) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let (arrivals, repeats) = tally.arrivals()
        let drain = accepted <= arrivals.count ? max(0, Double(LoadRunner.nanoseconds(arrivals[max(accepted, 1) - 1] - end)) / 1e9) : nil
        return WebhookFigures(
            accepted: accepted, deliveredByEnd: arrivals.filter { $0 <= end }.count, delivered: arrivals.count, repeats: repeats,
            drainSeconds: accepted == 0 ? 0 : drain)
    }

    /// Signs each worker's next `count` bodies (notifications, renewals, transactions) before a
    /// round's clock starts, in parallel, dropping the ones already sent: the load tool's own
    /// signing then does not compete with the server for the CPU while it is measured. `count`
    /// follows the busiest round so far (a worker that still runs out signs the rest as it goes).
    private func topUp(_ minted: [MintedBodies], from next: [Int], count: Int, _ requests: ScenarioRequests) async throws -> [MintedBodies] {
        try await withThrowingTaskGroup(of: (Int, MintedBodies).self) { group in
            for (worker, bodies) in minted.enumerated() {
                group.addTask {
                    var bodies = bodies
                    bodies.bodies = bodies.bodies.filter { $0.key >= next[worker] }
                    for index in next[worker]..<(next[worker] + count) where bodies.bodies[index] == nil {
                        bodies.bodies[index] = try requests.body(worker, index)
                    }
                    return (worker, bodies)
                }
            }
            var result = minted
            for try await (worker, bodies) in group { result[worker] = bodies }
            return result
        }
    }

    /// Runs `options.concurrency` workers for one round's share of `options.duration`, each
    /// sending the requests `make` builds for its (worker, request index), and adds what they
    /// measured to `samples` (whose request indices carry on from the previous round).
    private func phase(
        client: HTTPClient, into samples: PhaseSamples, make: @escaping @Sendable (_ worker: Int, _ index: Int) throws -> HTTPClientRequest
    ) async {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(options.duration * 1_000 / Double(options.rounds)))
        let first = samples.nextIndices
        typealias Worker = (worker: Int, latencies: [UInt64], errors: Int, firstFailure: String?, next: Int)
        let workers = await withTaskGroup(of: Worker.self) { group in
            for worker in 0..<options.concurrency {
                group.addTask {
                    var latencies: [UInt64] = []
                    latencies.reserveCapacity(1 << 14)
                    var errors = 0
                    var firstFailure: String?
                    var index = first[worker]
                    while clock.now < deadline {
                        defer { index += 1 }
                        let request: HTTPClientRequest
                        do {
                            request = try make(worker, index)
                        } catch {
                            errors += 1
                            firstFailure = firstFailure ?? "the request cannot be built: \(error)"
                            continue
                        }
                        let sent = clock.now
                        let failure = await Self.failure(of: request, client: client)
                        latencies.append(Self.nanoseconds(clock.now - sent))
                        if let failure {
                            errors += 1
                            firstFailure = firstFailure ?? failure
                        }
                    }
                    return (worker, latencies, errors, firstFailure, index)
                }
            }
            var all: [Worker] = []
            for await worker in group { all.append(worker) }
            return all
        }
        samples.add(
            latencies: workers.flatMap(\.latencies), errors: workers.reduce(0) { $0 + $1.errors },
            seconds: Double(Self.nanoseconds(clock.now - start)) / 1e9,
            firstFailure: workers.sorted { $0.worker < $1.worker }.lazy.compactMap(\.firstFailure).first,
            nextIndices: workers.sorted { $0.worker < $1.worker }.map(\.next))
    }

    /// Posts one signed transaction per user (the subscription `originals` holds at the same
    /// position), so reads find real subscribers, renewals renew something and Apple asks about
    /// subscriptions someone owns.
    private func createSubscribers(_ users: [String], originals: [String], client: HTTPClient) async throws {
        try await forEach(Array(zip(users, originals))) { worker, pair in
            let (user, original) = pair
            let body = try traffic.transactionBody(originalTransactionID: original, now: Date())
            let (status, _) = try await Self.exchange(
                request(.POST, worker, "v1/subscribers/\(user)/transactions", body: body, authorized: true), client: client)
            guard (200..<300).contains(status) else { throw LoadError.warmUpRefused(step: "POST transactions for \(user)", status: status) }
        }
    }

    /// Buys the demo product for one simulator account per user and returns each account's app
    /// receipt, in `users` order.
    private func buyReceipts(_ users: [String], client: HTTPClient) async throws -> [String] {
        let simulator = options.simulatorURL.absoluteString.trimmingSuffix("/") + "/simulator/v1/"
        let receipts = ReceiptBox(count: users.count)
        try await forEach(users) { _, user in
            let steps: [(String, HTTPMethod, String?)] = [
                ("accounts", .POST, #"{"id":"\#(user)","storefront":"USA"}"#),
                ("purchases", .POST, #"{"account":"\#(user)","productId":"\#(traffic.productID)"}"#),
                ("accounts/\(user)/receipt", .GET, nil),
            ]
            var last = Data()
            for (path, method, body) in steps {
                var request = HTTPClientRequest(url: simulator + path)
                request.method = method
                if let body { request.body = .bytes(ByteBuffer(string: body)) }
                let (status, data) = try await Self.exchange(request, client: client)
                guard (200..<300).contains(status) else { throw LoadError.warmUpRefused(step: "\(method) simulator \(path)", status: status) }
                last = data
            }
            guard let receipt = try? JSONDecoder().decode(ReceiptAnswer.self, from: last).receipt else { throw LoadError.noReceipt(account: user) }
            receipts.set(receipt, for: user, in: users)
        }
        return receipts.values
    }

    /// Runs `body` for every element with `options.concurrency` in flight.
    private func forEach<Element: Sendable>(
        _ elements: [Element], _ body: @escaping @Sendable (_ worker: Int, _ element: Element) async throws -> Void
    ) async throws {
        let concurrency = options.concurrency
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<max(concurrency, 1) {
                group.addTask {
                    for element in stride(from: worker, to: elements.count, by: max(concurrency, 1)).map({ elements[$0] }) {
                        try await body(worker, element)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A request to the server instance `worker` is assigned to.
    func request(_ method: HTTPMethod, _ worker: Int, _ path: String, body: String? = nil, authorized: Bool = false) -> HTTPClientRequest {
        let target = options.targets[worker % options.targets.count]
        var request = HTTPClientRequest(url: target.absoluteString.trimmingSuffix("/") + "/" + path)
        request.method = method
        if authorized { request.headers.add(name: "Authorization", value: "Bearer \(options.clientKey)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        return request
    }

    /// Nil when the request was answered 2xx; else what it got, named by its method and path.
    private static func failure(of request: HTTPClientRequest, client: HTTPClient) async -> String? {
        let route = "\(request.method.rawValue) \(URL(string: request.url)?.path ?? request.url)"
        do {
            let status = try await exchange(request, client: client).status
            return (200..<300).contains(status) ? nil : "\(route): HTTP \(status)"
        } catch {
            return "\(route): \(error)"
        }
    }

    private static func exchange(_ request: HTTPClientRequest, client: HTTPClient) async throws -> (status: UInt, body: Data) {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (response.status.code, Data(body.readableBytesView))
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds / 1_000_000_000))
    }

    private struct ReceiptAnswer: Decodable {
        let receipt: String
    }
}

/// One worker's signed bodies, by request index.
struct MintedBodies: Sendable {
    var bodies: [Int: String] = [:]
}

/// The warm-up's receipts, filled by concurrent tasks.
private final class ReceiptBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String]

    init(count: Int) { storage = Array(repeating: "", count: count) }

    /// Stores `receipt` at the position of `user` in `users`.
    func set(_ receipt: String, for user: String, in users: [String]) {
        guard let index = users.firstIndex(of: user) else { return }
        lock.withLock { storage[index] = receipt }
    }

    var values: [String] { lock.withLock { storage } }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
