public import Foundation

/// How the simulated notification service misbehaves, so a server's handling of Apple's real
/// delivery failures (duplicates, reordering, lateness, loss) can be tested on purpose.
///
/// Probabilities are drawn from the simulator's seeded generator, so a run with the same seed
/// misbehaves the same way every time.
public struct DeliveryFaults: Hashable, Sendable, Codable {
    /// Chance that a notification is delivered a second time, with the same `notificationUUID`.
    public var duplicateProbability: Double
    /// Holds each batch of notifications produced by one step and delivers it in reverse order.
    public var reorder: Bool
    /// Virtual seconds added before each notification's first attempt.
    public var delay: TimeInterval
    /// Chance that a notification is never delivered; it is still listed in notification history,
    /// as Apple lists notifications it failed to deliver.
    public var dropProbability: Double
    /// Drops exactly the next `dropNext` notifications, whatever the probabilities say.
    public var dropNext: Int

    /// Faithful delivery unless told otherwise.
    public init(
        duplicateProbability: Double = 0, reorder: Bool = false, delay: TimeInterval = 0,
        dropProbability: Double = 0, dropNext: Int = 0
    ) {
        self.duplicateProbability = duplicateProbability
        self.reorder = reorder
        self.delay = delay
        self.dropProbability = dropProbability
        self.dropNext = dropNext
    }

    /// No fault at all: what a test expects by default.
    public static let none = DeliveryFaults()
}
