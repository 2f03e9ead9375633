import Foundation

/// Reads a command's input: a file path, or `-` for standard input.
enum InputFile {
    static func read(_ path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The input as trimmed text (JWS and base64 files usually end with a newline).
    static func text(_ path: String) throws -> String {
        String(decoding: try read(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
