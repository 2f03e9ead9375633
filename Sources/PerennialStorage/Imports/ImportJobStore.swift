public import Foundation

/// Where an import of subscribers from a previous backend (`perennial import`) keeps its progress:
/// how far through its input it is, what it counted, and every line it could not import, so that
/// an import killed at any point resumes where its last checkpoint left it, and the report an
/// operator reads at the end names each refused line.
///
/// A capability of every back end (``SubscriberStorage`` is composed of it), kept apart from
/// ``JobStore`` because a checkpoint appends lines to the report in the same transaction as it
/// moves the job forward: a checkpoint written twice (two runs of one import at once) must not
/// report a line twice.
public protocol ImportJobStore: Sendable {
    /// Keeps `job` unless an import with its id exists; returns the import as stored (the
    /// existing one when there was one: the same input imported again is the same import).
    func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob

    /// The import `id`, nil when none has that id.
    func importJob(id: String) async throws(StorageError) -> ImportJob?

    /// Moves the import forward to `job` (its counts, rows settled and state) and appends
    /// `problems` to its report, in one transaction, if the stored import has still settled
    /// `expectedSettledRows`; false, writing nothing, when another run moved it first.
    func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool

    /// The imports of an app, the latest started first, at most `limit`: what an operator scans for
    /// the one under way.
    func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob]

    /// The lines of the import's report after line `after`, in line order, at most `limit`.
    func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem]
}

/// One import as stored: its identity, how far it went and what it counted.
public struct ImportJob: Sendable, Equatable {
    /// Whether the import has lines left.
    public enum State: String, Sendable, Codable {
        case running, finished
    }

    /// A digest of the app, the input's format and its bytes: importing the same input twice is
    /// one import.
    public var id: String
    public var appBundleID: String
    /// `transactions`, `revenueCat` or `receipts`.
    public var format: String
    /// How many rows the input has (its header excluded).
    public var totalRows: Int
    /// How many rows, from the first, are settled: where a resumed run starts.
    public var settledRows: Int
    public var state: State
    public var counts: ImportCounts
    public var startedAt: Date
    public var updatedAt: Date

    public init(
        id: String, appBundleID: String, format: String, totalRows: Int, settledRows: Int = 0, state: State = .running,
        counts: ImportCounts = ImportCounts(), startedAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.format = format
        self.totalRows = totalRows
        self.settledRows = settledRows
        self.state = state
        self.counts = counts
        self.startedAt = startedAt
        self.updatedAt = updatedAt
    }
}

/// What became of each line of an import.
public enum ImportOutcome: String, Sendable, Codable, CaseIterable {
    /// Apple's records of the purchase were applied and bound to the line's user.
    case imported
    /// Perennial already held the purchase with an owner (an earlier line, an earlier import, or
    /// live traffic): nothing was asked or written.
    case alreadyKnown
    /// Apple knows no purchase by the line's transaction id.
    case notFound
    /// Apple's answer, or the line's receipt, is not evidence of this app (another app's bundle id,
    /// an environment the app does not accept, a bad signature).
    case refused
    /// The line names a purchase of another store (RevenueCat's Play Store, Stripe…), or of an
    /// environment the app does not serve.
    case skipped
    /// The line cannot be read (a missing column, an empty id, a receipt that is not base64).
    case malformed
}

/// How many lines ended each way.
public struct ImportCounts: Sendable, Equatable, Codable {
    public var imported = 0
    public var alreadyKnown = 0
    public var notFound = 0
    public var refused = 0
    public var skipped = 0
    public var malformed = 0

    public init() {}

    public subscript(outcome: ImportOutcome) -> Int {
        get {
            switch outcome {
            case .imported: imported
            case .alreadyKnown: alreadyKnown
            case .notFound: notFound
            case .refused: refused
            case .skipped: skipped
            case .malformed: malformed
            }
        }
        set {
            switch outcome {
            case .imported: imported = newValue
            case .alreadyKnown: alreadyKnown = newValue
            case .notFound: notFound = newValue
            case .refused: refused = newValue
            case .skipped: skipped = newValue
            case .malformed: malformed = newValue
            }
        }
    }

    /// Lines settled.
    public var total: Int { ImportOutcome.allCases.reduce(0) { $0 + self[$1] } }
}

/// A line of an import that was not imported, and why: the report's lines.
public struct ImportProblem: Sendable, Equatable, Codable {
    /// The row's line in the file (1-based, the header is line 1), or its position among the files
    /// of a receipts directory (1-based, by name).
    public var line: Int
    public var outcome: ImportOutcome
    public var message: String

    public init(line: Int, outcome: ImportOutcome, message: String) {
        self.line = line
        self.outcome = outcome
        self.message = message
    }
}
