import Foundation
import PerennialAppStore
import PerennialServer

/// Reads a command's input: a file path, or `-` for standard input.
enum InputFile {
    /// - Throws: ``FileAccessError`` naming the path and the system's reason.
    static func read(_ path: String) throws(FileAccessError) -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FileAccessError("read", path, error)
        }
    }

    /// The input as trimmed text (JWS and base64 files usually end with a newline).
    static func text(_ path: String) throws(FileAccessError) -> String {
        String(decoding: try read(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A file or directory a command could not use, said as a person would: what it tried, the path
/// and the system's reason (`cannot read /x.json: No such file or directory`), not Foundation's
/// error with its domain, code and user info.
struct FileAccessError: Error, CustomStringConvertible {
    let description: String

    init(_ verb: String, _ path: String, _ error: any Error) {
        description = "cannot \(verb) \(path): \(SystemErrorReason.of(error))"
    }
}
