import Foundation
public import Logging
import Synchronization

/// One JSON object a line on standard error (`perennial serve --log-format json`), for log shippers
/// that parse lines rather than read them: the fields of the text format — time, level, label,
/// source, message — and the metadata as an object of strings.
///
/// A line is written whole under a lock, so lines of concurrent requests never interleave.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let own = event.metadata { fields.merge(own) { $1 } }
        let line = Line(
            time: Self.timestamp(), level: event.level.rawValue, label: label, source: event.source, message: event.message.description,
            metadata: fields.isEmpty ? nil : fields.mapValues(\.description))
        guard var data = try? Self.encoder.encode(line) else { return }
        data.append(UInt8(ascii: "\n"))
        Self.output.withLock { _ in FileHandle.standardError.write(data) }
    }

    private struct Line: Encodable {
        var time: String
        var level: String
        var label: String
        var source: String
        var message: String
        var metadata: [String: String]?
    }

    private static let output = Mutex(())

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().timeZone(separator: .omitted).time(includingFractionalSeconds: true).timeSeparator(.colon))
    }
}
