/// What one action or one clock advance produced: the lifecycle's output, the notifications signed
/// for it, and the deliveries made while it ran.
public struct SimulatorStep: Hashable, Sendable {
    public let output: LifecycleOutput
    public let notifications: [WireNotification]
    public let deliveries: [DeliveryAttempt]

    public init(output: LifecycleOutput, notifications: [WireNotification], deliveries: [DeliveryAttempt]) {
        self.output = output
        self.notifications = notifications
        self.deliveries = deliveries
    }
}
