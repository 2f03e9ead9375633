public import Foundation

/// One attempt of Apple to deliver a notification.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    @Lenient<EpochMilliseconds> public var attemptDate: Date?
    public var sendAttemptResult: SendAttemptResult?

    /// Creates an attempt.
    public init(attemptDate: Date? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
