/// A live test waited for something that never came (the guard that keeps a broken delivery from
/// hanging the suite; it asserts nothing about how long things take).
struct LiveTimeout: Error, CustomStringConvertible {
    let waitingFor: String
    var description: String { "gave up waiting for \(waitingFor)" }
}

/// Runs `operation`, failing with ``LiveTimeout`` if it has not finished after `seconds`.
func within<T: Sendable>(
    _ seconds: Double, waitingFor what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw LiveTimeout(waitingFor: what)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw LiveTimeout(waitingFor: what) }
        return first
    }
}
