public import Foundation

/// A ``PersistentStore`` in one file, replaced atomically so a crash mid-write leaves either the
/// old or the new content, never a torn file.
public struct FileStore: PersistentStore {
    /// The file's location; its directory is created on the first save.
    public let url: URL

    /// A store at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The file's bytes, or nil when it does not exist yet.
    public func load() throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Writes to a temporary file and renames it over the old one.
    public func save(_ data: Data) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
