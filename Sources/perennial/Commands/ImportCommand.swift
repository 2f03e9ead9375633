import ArgumentParser
import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialStorage

/// `perennial import FILE`: brings an existing app's subscribers in from a previous backend's
/// export (docs/import.md). The import itself is ``SubscriberImport``; this command reads the
/// input, paces the calls to Apple, shows the progress and prints the report.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import subscribers from a previous backend: each purchase's truth is asked of Apple.",
        discussion: """
            Formats: transactions (a CSV with a header naming an app user id column and a \
            transaction id column), revenuecat (RevenueCat's transactions export), receipts (a \
            CSV of app user ids and base64 receipts, or a directory with one receipt file per \
            user, named after the user). Running the same input again resumes an interrupted \
            import, or prints the report of a finished one. See docs/import.md.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case transactions, revenuecat, receipts

        var input: ImportInput.Format {
            switch self {
            case .transactions: .transactions
            case .revenuecat: .revenueCat
            case .receipts: .receipts
            }
        }
    }

    @Argument(help: "The CSV file, or for receipts a directory of receipt files.")
    var input: String

    @Option(help: "What the input is: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format

    @Option(help: "The app's id in the configuration (optional when it has one app).")
    var app: String?

    @Flag(help: "Check the input and count its rows without asking Apple or writing anything.")
    var dryRun = false

    @Option(help: "Rows asked about at once, and settled between two checkpoints.")
    var rowsAtOnce = 8

    @Option(help: "Get Transaction History calls per second in production, a tenth of it in Apple's sandbox (0: unpaced).")
    var historyPerSecond: Double = ApplePacing.defaultRate(.transactionHistory)

    @Option(help: "Get All Subscription Statuses calls per second in production, a tenth of it in Apple's sandbox (0: unpaced).")
    var statusesPerSecond: Double = ApplePacing.defaultRate(.subscriptionStatuses)

    @Option(help: "verifyReceipt calls per second (0: unpaced).")
    var verifyReceiptPerSecond: Double = ApplePacing.defaultRate(.verifyReceipt)

    @Option(help: "Seconds between two progress lines when standard error is not a terminal.")
    var progressInterval: Double = 10

    @Option(help: "Who imports, for the timeline (default: the login name).")
    var operatorName = ProcessInfo.processInfo.environment["USER"].map { "cli:\($0)" } ?? "cli"

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard rowsAtOnce >= 1 else { throw ValidationError("--rows-at-once must be at least 1") }
        guard [historyPerSecond, statusesPerSecond, verifyReceiptPerSecond].allSatisfy({ $0 >= 0 }) else {
            throw ValidationError("rates must not be negative")
        }
    }

    func run() async throws {
        let read = try readInput()
        let configuration = try database.configuration()
        let clock = WallClock()
        let pacing = ApplePacing(
            AsyncHTTPClientTransport(),
            rates: [.transactionHistory: historyPerSecond, .subscriptionStatuses: statusesPerSecond, .verifyReceipt: verifyReceiptPerSecond],
            clock: clock)
        let apps = try AppRegistry(configuration: configuration, environment: ProcessInfo.processInfo.environment, transport: pacing, wallClock: clock)
        let chosen = try apps.chosen(app)
        if dryRun {
            print(ImportReport(dryRun: try SubscriberImport.dryRun(read, app: chosen), rows: read.rowCount).text)
            return
        }
        try await DatabaseURL(configuration.databaseURL).withStorage(createMissingFile: true) { storage in
            try await storage.migrate()
            let pipeline = EvidencePipeline(
                app: chosen, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "perennial.import"))
            let subscriberImport = SubscriberImport(
                pipeline: pipeline, clock: clock, options: SubscriberImport.Options(checkpointRows: rowsAtOnce, admin: operatorName))
            let display = ImportProgressDisplay(onTerminal: isatty(STDERR_FILENO) == 1, interval: progressInterval)
            let job = try await subscriberImport.run(read) { job in display.show(job) }
            display.finish()
            let problems = try await ImportReport.problems(of: job.id, in: storage)
            print(ImportReport(job: job, problems: problems).text)
        }
    }

    /// Opens the input: a file or a directory is read a chunk (a file) at a time, so an export of
    /// any size is imported in bounded memory; standard input, which cannot be read twice, is
    /// held whole.
    private func readInput() throws -> ImportInput {
        if input == "-" { return try ImportInput.csv(try InputFile.read(input), format: format.input) }
        var isDirectory: ObjCBool = false
        if format == .receipts, FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
            return try ImportInput.receiptsDirectory(URL(fileURLWithPath: input))
        }
        return try ImportInput.csvFile(URL(fileURLWithPath: input), format: format.input)
    }
}
