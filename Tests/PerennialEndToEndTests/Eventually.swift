/// Whether `condition` holds within 90 s of wall time, checked every 100 ms: for what a server's
/// background job does on its own schedule (the whole suite shares two cores, so the deadline is
/// generous; it bounds a hang, it does not measure speed).
func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<900 {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return false
}
