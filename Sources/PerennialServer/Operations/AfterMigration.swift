import ServiceLifecycle

/// Opens once the database schema is current; background jobs wait on it.
///
/// A job that queries before the migrations commit does not only fail once: PostgresNIO keeps a
/// prepared statement that failed to prepare (`relation "outbox" does not exist`) in error on that
/// pooled connection for good, so the job would keep failing on a database it started against
/// first. Several `perennial serve` processes starting on a fresh database make that the usual case.
actor MigrationGate {
    private(set) var isOpen = false

    func open() {
        isOpen = true
    }

    /// Returns when the gate opens; throws `CancellationError` if the task is cancelled first.
    func waitUntilOpen() async throws {
        while !isOpen {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Runs a background job only after ``MigrationGate`` opens; stops quietly if the service group
/// shuts down first (a failed migration stops the server, and with it the group).
struct AfterMigration: Service {
    let job: any Service
    let gate: MigrationGate

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { [gate] in try await gate.waitUntilOpen() }
        } catch is CancellationError {
            return
        }
        try await job.run()
    }
}
