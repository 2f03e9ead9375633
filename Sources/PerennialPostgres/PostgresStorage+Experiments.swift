public import Foundation
public import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// One statement: the partial unique index turns a concurrent second running experiment into
    /// a conflict that inserts nothing; what stopped it is read afterwards.
    public func addExperiment(_ experiment: ExperimentDefinition) async throws(StorageError) -> ExperimentWrite {
        let record = try Self.json(experiment)
        return try await withRows("add experiment \(experiment.id)") { rows in
            let inserted = try await rows.connection.query(
                """
                INSERT INTO experiments (app_bundle_id, id, state, record)
                VALUES (\(experiment.appBundleID), \(experiment.id), \(experiment.state.rawValue), \(record))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: rows.logger)
            for try await _ in inserted.decode(String.self) { return .written }
            if try await Self.storedState(of: experiment, rows) != nil { return .idTaken }
            return try await Self.otherRunning(than: experiment, rows).map { .anotherRunning($0) } ?? .idTaken
        }
    }

    /// One statement guarded by the expected state; a second running experiment another writer
    /// committed after the statement's snapshot is refused by the partial unique index.
    public func replaceExperiment(_ experiment: ExperimentDefinition, expecting expected: ExperimentState) async throws(StorageError) -> ExperimentWrite {
        let record = try Self.json(experiment)
        return try await withRows("replace experiment \(experiment.id)") { rows in
            do {
                let updated = try await rows.connection.query(
                    """
                    UPDATE experiments SET state = \(experiment.state.rawValue), record = \(record)
                    WHERE app_bundle_id = \(experiment.appBundleID) AND id = \(experiment.id) AND state = \(expected.rawValue)
                    RETURNING id
                    """, logger: rows.logger)
                for try await _ in updated.decode(String.self) { return .written }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.uniqueViolation {
                return try await Self.otherRunning(than: experiment, rows).map { .anotherRunning($0) } ?? .stateChanged(to: expected)
            }
            guard let stored = try await Self.storedState(of: experiment, rows) else { return .noSuchExperiment }
            return .stateChanged(to: ExperimentState(rawValue: stored) ?? .stopped)
        }
    }

    /// PostgreSQL's SQLSTATE for a unique index refusing a row.
    private static let uniqueViolation = "23505"

    /// By id byte by byte (`COLLATE "C"`, as SQLite orders), whatever the database's collation.
    public func experiments(appBundleID: String) async throws(StorageError) -> [ExperimentDefinition] {
        try await withRows("read experiments") { rows in
            let found = try await rows.connection.query(
                "SELECT id, record FROM experiments WHERE app_bundle_id = \(appBundleID) ORDER BY id COLLATE \"C\"", logger: rows.logger)
            var experiments: [ExperimentDefinition] = []
            for try await (id, record) in found.decode((String, String).self) {
                experiments.append(try StorageJSON.decode(ExperimentDefinition.self, from: record, table: "experiments", key: id))
            }
            return experiments
        }
    }

    /// One statement: the insert that conflicts does nothing, and the stored date is read back.
    public func recordExposure(experimentID: String, appBundleID: String, user: AppUserID, at date: Date) async throws(StorageError) -> Date {
        try await withRows("record exposure to \(experimentID)") { rows in
            let found = try await rows.connection.query(
                """
                WITH inserted AS (
                    INSERT INTO experiment_exposures (app_bundle_id, experiment_id, app_user_id, first_exposed_at)
                    VALUES (\(appBundleID), \(experimentID), \(user.rawValue), \(date.timeIntervalSince1970))
                    ON CONFLICT DO NOTHING RETURNING first_exposed_at
                )
                SELECT first_exposed_at FROM inserted
                UNION ALL
                SELECT first_exposed_at FROM experiment_exposures
                WHERE app_bundle_id = \(appBundleID) AND experiment_id = \(experimentID) AND app_user_id = \(user.rawValue)
                """, logger: rows.logger)
            for try await seconds in found.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            return date
        }
    }

    public func exposures(experimentID: String, appBundleID: String) async throws(StorageError) -> [ExperimentExposure] {
        try await withRows("read exposures of \(experimentID)") { rows in
            let found = try await rows.connection.query(
                """
                SELECT app_user_id, first_exposed_at FROM experiment_exposures
                WHERE app_bundle_id = \(appBundleID) AND experiment_id = \(experimentID) ORDER BY app_user_id COLLATE "C"
                """, logger: rows.logger)
            var exposures: [ExperimentExposure] = []
            for try await (user, seconds) in found.decode((String, Double).self) {
                exposures.append(ExperimentExposure(user: AppUserID(user), firstExposedAt: Date(timeIntervalSince1970: seconds)))
            }
            return exposures
        }
    }

    private static func storedState(of experiment: ExperimentDefinition, _ rows: PostgresRows) async throws -> String? {
        let found = try await rows.connection.query(
            "SELECT state FROM experiments WHERE app_bundle_id = \(experiment.appBundleID) AND id = \(experiment.id)", logger: rows.logger)
        for try await state in found.decode(String.self) { return state }
        return nil
    }

    /// The app's running experiment when `experiment` would be a second one.
    private static func otherRunning(than experiment: ExperimentDefinition, _ rows: PostgresRows) async throws -> String? {
        guard experiment.state == .running else { return nil }
        let found = try await rows.connection.query(
            "SELECT id FROM experiments WHERE app_bundle_id = \(experiment.appBundleID) AND state = 'running' AND id <> \(experiment.id)",
            logger: rows.logger)
        for try await id in found.decode(String.self) { return id }
        return nil
    }

    private static func json(_ experiment: ExperimentDefinition) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(experiment, what: "experiment \(experiment.id)"), as: UTF8.self)
    }
}
