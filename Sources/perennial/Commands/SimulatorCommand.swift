import ArgumentParser

/// `perennial simulator …`: the App Store simulator. Serving over HTTP is the default subcommand;
/// `run` (a scenario file on a virtual clock) sits beside it.
struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator",
        abstract: "Play the App Store's side of the wire: purchases, renewals, receipts and notifications.",
        subcommands: [SimulatorServeCommand.self, SimulatorRunCommand.self],
        defaultSubcommand: SimulatorServeCommand.self
    )
}
