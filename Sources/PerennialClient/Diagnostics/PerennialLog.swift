#if canImport(os)
import os
#endif

/// Where the SDK's log lines go: the configured handler when there is one, else `os.Logger` on
/// Apple platforms (subsystem `dev.perennial.client`), else nowhere — Linux has no system log an
/// SDK should write to unasked, so a server-side or CI user opts in with a handler.
///
/// Callers pass only ids, counts and error codes (see ``PerennialLogEntry``); the message is built
/// only when its level is enabled.
struct PerennialLog: Sendable {
    let level: PerennialLogLevel
    let handler: (@Sendable (PerennialLogEntry) -> Void)?

    init(level: PerennialLogLevel, handler: (@Sendable (PerennialLogEntry) -> Void)?) {
        self.level = level
        self.handler = handler
    }

    func debug(_ category: String, _ message: @autoclosure () -> String) { write(.debug, category, message) }
    func info(_ category: String, _ message: @autoclosure () -> String) { write(.info, category, message) }
    func warning(_ category: String, _ message: @autoclosure () -> String) { write(.warning, category, message) }
    func error(_ category: String, _ message: @autoclosure () -> String) { write(.error, category, message) }

    private func write(_ entryLevel: PerennialLogLevel, _ category: String, _ message: () -> String) {
        guard entryLevel != .off, entryLevel >= level else { return }
        let entry = PerennialLogEntry(level: entryLevel, category: category, message: message())
        if let handler {
            handler(entry)
            return
        }
        #if canImport(os)
        // Public: the SDK logs no secret (ids, counts and codes only), and a redacted line helps no one.
        Logger(subsystem: "dev.perennial.client", category: category).log(level: Self.osLevel(entryLevel), "\(entry.message, privacy: .public)")
        #endif
    }

    #if canImport(os)
    private static func osLevel(_ level: PerennialLogLevel) -> OSLogType {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .default
        case .error, .off: .error
        }
    }
    #endif
}
