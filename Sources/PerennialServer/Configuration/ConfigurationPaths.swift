import Foundation

/// Paths in a configuration file are relative to the file, not to the working directory, so the
/// same file works whichever directory `perennial serve` is started from.
public enum ConfigurationPaths {
    static func absolute(_ path: String, relativeTo directory: URL) -> String {
        guard !path.hasPrefix("/") else { return path }
        return directory.appendingPathComponent(path).standardizedFileURL.path
    }

    /// Why a file could not be read, as a person says it (`No such file or directory`), not
    /// Foundation's error with its domain, code and user info.
    public static func reason(_ error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError)
        return posix.map { String(cString: strerror($0.code.rawValue)) } ?? (error as NSError).localizedDescription
    }
}
