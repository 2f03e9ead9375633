public import Hummingbird
public import Logging
public import NIOCore

/// The simulator over HTTP: Apple's verifyReceipt and App Store Server API paths
/// with Apple's wire formats, and the `/simulator/v1` device and control API a test drives.
///
/// A free function, as in Hummingbird's examples, so tests run the same application in-process
/// (`.router`) or on a port (`.live`), and `perennial simulator` serves it with `runService()`.
public func buildSimulatorApplication(
    simulator: AppStoreSimulator,
    configuration: ApplicationConfiguration = ApplicationConfiguration(),
    logger: Logger? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> Application<RouterResponder<BasicRequestContext>> {
    Application(
        router: buildSimulatorRouter(simulator: simulator), configuration: configuration, onServerRunning: onServerRunning,
        logger: logger ?? Logger(label: "perennial.simulator"))
}

/// The routes of ``buildSimulatorApplication(simulator:configuration:logger:onServerRunning:)``.
public func buildSimulatorRouter(simulator: AppStoreSimulator) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    AppleRoutes(simulator: simulator).add(to: router)
    DeviceRoutes(simulator: simulator).add(to: router.group("simulator/v1"))
    ControlRoutes(simulator: simulator).add(to: router.group("simulator/v1"))
    ActionRoutes(simulator: simulator).add(to: router.group("simulator/v1"))
    return router
}
