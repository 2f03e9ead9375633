import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// One Hummingbird application running in its own service group, stoppable from a test.
struct RunningService: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, Never>
    private let exited: NIOLockedValueBox<Bool>

    /// Runs `service` until ``stop()``; `onExit` runs once it has stopped, however it stopped.
    static func run(_ service: some Service, logger: Logger, onExit: @escaping @Sendable () -> Void = {}) -> RunningService {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], gracefulShutdownSignals: [], logger: logger))
        let exited = NIOLockedValueBox(false)
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("service stopped: \(error)")
            }
            exited.withLockedValue { $0 = true }
            onExit()
        }
        return RunningService(group: group, task: task, exited: exited)
    }

    /// Whether the service has stopped already.
    var hasExited: Bool { exited.withLockedValue { $0 } }

    /// Shuts the service down gracefully and waits until it has.
    func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }
}
