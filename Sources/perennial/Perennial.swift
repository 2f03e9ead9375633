import ArgumentParser

/// The `perennial` command: a thin layer of argument parsing over the libraries.
@main
struct Perennial: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perennial",
        abstract: "Self-hosted App Store subscription backend: verify, decode and track Apple's evidence.",
        subcommands: [
            ReceiptCommand.self, JWSCommand.self, SimulatorCommand.self, ServeCommand.self, CheckCommand.self, MigrateCommand.self, BackupCommand.self,
            LoadCommand.self, AnalyticsCommand.self, PrivacyCommand.self, SupportCommand.self, ImportCommand.self,
        ]
    )
}
