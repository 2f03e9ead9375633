import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// The scenario's request for each (worker, request index) of one run: which kind it is (the
/// scenario decides), which warm-up user it concerns, and its signed body, preminted or signed on
/// the spot.
struct ScenarioRequests: Sendable {
    let runner: LoadRunner
    /// Distinguishes this run's new users from earlier runs' on the same database.
    let run: String
    /// The warm-up's users and, at the same positions, their subscriptions' original ids.
    let users: [String]
    let originals: [String]
    /// The warm-up's receipts, by user position (the receipts scenario only).
    let receipts: [String]

    private var scenario: LoadScenario { runner.options.scenario }

    /// The request, with the preminted body when `minted` has one.
    func request(_ worker: Int, _ index: Int, minted: MintedBodies) throws -> HTTPClientRequest {
        let options = runner.options
        switch scenario.kind(ofRequest: index) {
        case .read:
            return runner.request(.GET, worker, "v1/subscribers/\(users[user(worker, index)])", authorized: true)
        case .receipt:
            let pick = user(worker, index)
            return runner.request(
                .POST, worker, "v1/subscribers/\(users[pick])/receipts", body: #"{"receipt":"\#(receipts[pick])"}"#, authorized: true)
        case .notification, .renewal:
            return runner.request(.POST, worker, "apple/notifications/v2/\(options.appID)", body: try minted.bodies[index] ?? body(worker, index))
        case .retentionRequest:
            return runner.request(.POST, worker, "apple/retention/\(options.appID)", body: try minted.bodies[index] ?? body(worker, index))
        case .transaction:
            return runner.request(
                .POST, worker, "v1/subscribers/load-\(run)-w\(worker)-\(index)/transactions",
                body: try minted.bodies[index] ?? body(worker, index), authorized: true)
        }
    }

    /// The signed body of a notification, renewal, transaction or retention request, signed now;
    /// nil for the kinds that have none to sign.
    func body(_ worker: Int, _ index: Int) throws -> String? {
        let traffic = runner.traffic
        switch scenario.kind(ofRequest: index) {
        case .notification: return try traffic.notificationBody(now: Date())
        case .transaction: return try traffic.transactionBody(now: Date())
        case .renewal: return try traffic.renewalBody(originalTransactionID: originals[renewed(worker, index)], now: Date())
        case .retentionRequest: return try traffic.retentionRequestBody(originalTransactionID: originals[user(worker, index)], now: Date())
        case .read, .receipt: return nil
        }
    }

    /// The warm-up user a read, receipt or retention request concerns, spread over all users.
    private func user(_ worker: Int, _ index: Int) -> Int {
        (worker &* 7_919 &+ index) % users.count
    }

    /// The user a renewal renews: each worker keeps to its own users when there are enough of
    /// them, so one subscription's renewals are sent one after another, in the order they were
    /// signed (two renewals of one subscription racing could leave the older without an event).
    private func renewed(_ worker: Int, _ index: Int) -> Int {
        let concurrency = runner.options.concurrency
        let perWorker = max(users.count / concurrency, 1)
        return (worker + concurrency * (index % perWorker)) % users.count
    }
}
