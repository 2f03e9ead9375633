import Foundation

/// Runs `body` with a fresh directory, removed afterwards with everything in it.
func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}

/// Runs `body` with the path of a database file in a fresh directory, removed afterwards.
func withTemporarySQLiteFile(_ body: (String) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in try await body(directory.appendingPathComponent("perennial.sqlite").path) }
}
