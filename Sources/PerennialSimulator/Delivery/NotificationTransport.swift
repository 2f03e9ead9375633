public import Foundation

/// How the simulator POSTs a notification body; the HTTP implementation talks to a real server,
/// tests may substitute a recorder.
///
/// It never throws: a network failure is an outcome (``DeliveryOutcome/failed(reason:)``) that
/// Apple's schedule retries like a non-2xx answer.
public protocol NotificationTransport: Sendable {
    /// POSTs `body` (JSON) to `url` and reports what came back.
    func post(_ body: Data, to url: URL) async -> DeliveryOutcome
}
