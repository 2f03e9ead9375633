public import Foundation

/// Access to the shared fixtures (Apple's root certificates and the test vectors of Apple's App
/// Store Server Library), which are not part of this repository.
///
/// The directory comes from the `PERENNIAL_FIXTURES` environment variable. Tests that need it are
/// declared with `.enabled(if: Fixtures.isAvailable)` so that, without the variable, they are
/// reported as skipped rather than passed.
public enum Fixtures {
    /// The fixtures directory, or nil when `PERENNIAL_FIXTURES` is unset or does not exist.
    public static let directory: URL? = {
        guard let path = ProcessInfo.processInfo.environment["PERENNIAL_FIXTURES"], !path.isEmpty else {
            return nil
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }()

    /// Whether the fixture-based tests can run.
    public static var isAvailable: Bool { directory != nil }

    /// The error thrown when a test reaches for a fixture without the directory configured.
    public struct Unavailable: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "fixture \(path) needs PERENNIAL_FIXTURES to point at shared/fixtures" }
    }

    /// The URL of a fixture, given its path relative to the fixtures directory.
    public static func url(_ relativePath: String) throws -> URL {
        guard let directory else { throw Unavailable(path: relativePath) }
        return directory.appendingPathComponent(relativePath)
    }

    /// The bytes of a fixture.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The text of a fixture, trimmed of surrounding whitespace (JWS files end with a newline).
    public static func text(_ relativePath: String) throws -> String {
        String(decoding: try data(relativePath), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The relative paths of every regular file under a fixture folder, sorted.
    public static func files(under relativePath: String) throws -> [String] {
        let root = try url(relativePath)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        return names.sorted().map { relativePath + "/" + $0 }
    }
}
