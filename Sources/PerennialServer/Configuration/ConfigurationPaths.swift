import Foundation

/// Paths in a configuration file are relative to the file, not to the working directory, so the
/// same file works whichever directory `perennial serve` is started from.
public enum ConfigurationPaths {
    static func absolute(_ path: String, relativeTo directory: URL) -> String {
        guard !path.hasPrefix("/") else { return path }
        return directory.appendingPathComponent(path).standardizedFileURL.path
    }
}
