public import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func addExperiment(_ experiment: ExperimentDefinition) async throws(StorageError) -> ExperimentWrite {
        let record = try Self.json(experiment)
        return try await write("add experiment \(experiment.id)") { db in
            guard try Self.storedState(of: experiment, db) == nil else { return .idTaken }
            if let other = try Self.otherRunning(than: experiment, db) { return .anotherRunning(other) }
            try db.cachedStatement(sql: "INSERT INTO experiments (app_bundle_id, id, state, record) VALUES (?, ?, ?, ?)")
                .execute(arguments: [experiment.appBundleID, experiment.id, experiment.state.rawValue, record])
            return .written
        }
    }

    public func replaceExperiment(_ experiment: ExperimentDefinition, expecting expected: ExperimentState) async throws(StorageError) -> ExperimentWrite {
        let record = try Self.json(experiment)
        return try await write("replace experiment \(experiment.id)") { db in
            guard let stored = try Self.storedState(of: experiment, db) else { return .noSuchExperiment }
            guard stored == expected.rawValue else { return .stateChanged(to: ExperimentState(rawValue: stored) ?? .stopped) }
            if let other = try Self.otherRunning(than: experiment, db) { return .anotherRunning(other) }
            try db.cachedStatement(sql: "UPDATE experiments SET state = ?, record = ? WHERE app_bundle_id = ? AND id = ?")
                .execute(arguments: [experiment.state.rawValue, record, experiment.appBundleID, experiment.id])
            return .written
        }
    }

    public func experiments(appBundleID: String) async throws(StorageError) -> [ExperimentDefinition] {
        try await read("read experiments") { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT id, record FROM experiments WHERE app_bundle_id = ? ORDER BY id"), arguments: [appBundleID])
            return try rows.map { row throws(StorageError) in
                try StorageJSON.decode(ExperimentDefinition.self, from: row["record"] as String, table: "experiments", key: row["id"])
            }
        }
    }

    public func recordExposure(experimentID: String, appBundleID: String, user: AppUserID, at date: Date) async throws(StorageError) -> Date {
        try await write("record exposure to \(experimentID)") { db in
            try db.cachedStatement(
                sql: "INSERT INTO experiment_exposures (app_bundle_id, experiment_id, app_user_id, first_exposed_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
            ).execute(arguments: [appBundleID, experimentID, user.rawValue, date.timeIntervalSince1970])
            let first = try Double.fetchOne(
                db.cachedStatement(sql: "SELECT first_exposed_at FROM experiment_exposures WHERE app_bundle_id = ? AND experiment_id = ? AND app_user_id = ?"),
                arguments: [appBundleID, experimentID, user.rawValue])
            return Date(timeIntervalSince1970: first ?? date.timeIntervalSince1970)
        }
    }

    public func exposures(experimentID: String, appBundleID: String) async throws(StorageError) -> [ExperimentExposure] {
        try await read("read exposures of \(experimentID)") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT app_user_id, first_exposed_at FROM experiment_exposures WHERE app_bundle_id = ? AND experiment_id = ? ORDER BY app_user_id"),
                arguments: [appBundleID, experimentID]
            ).map { ExperimentExposure(user: AppUserID($0["app_user_id"] as String), firstExposedAt: Date(timeIntervalSince1970: $0["first_exposed_at"])) }
        }
    }

    private static func storedState(of experiment: ExperimentDefinition, _ db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT state FROM experiments WHERE app_bundle_id = ? AND id = ?"), arguments: [experiment.appBundleID, experiment.id])
    }

    /// The app's running experiment when `experiment` would be a second one.
    private static func otherRunning(than experiment: ExperimentDefinition, _ db: Database) throws -> String? {
        guard experiment.state == .running else { return nil }
        return try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM experiments WHERE app_bundle_id = ? AND state = 'running' AND id <> ?"),
            arguments: [experiment.appBundleID, experiment.id])
    }

    private static func json(_ experiment: ExperimentDefinition) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(experiment, what: "experiment \(experiment.id)"), as: UTF8.self)
    }
}
