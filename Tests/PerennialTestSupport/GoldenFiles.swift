public import Foundation

/// Golden files: whole JSON outputs (API answers, webhook bodies, CLI output) pinned as `.json`
/// files in a `Golden/` folder beside the test file, so a change to the wire is a visible diff.
///
/// Both sides are normalized (``GoldenNormalization``) and printed pretty with sorted keys before
/// they are compared, so only the JSON's content counts, not its layout. With
/// `PERENNIAL_UPDATE_GOLDEN=1` in the environment the files are written instead of compared (and
/// the check passes):
///
/// ```sh
/// PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden
/// ```
///
/// The files are read at run time from the source tree (found through the test's `#filePath`),
/// not bundled as SwiftPM resources.
public struct GoldenFiles: Sendable {
    /// The folder holding the `.json` files.
    public let directory: URL
    /// What is replaced by a placeholder before comparing.
    public let normalization: GoldenNormalization

    /// The command that rewrites every golden file, printed with each mismatch.
    public static let updateCommand = "PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden"

    /// Whether this run writes the golden files instead of comparing (`PERENNIAL_UPDATE_GOLDEN=1`).
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["PERENNIAL_UPDATE_GOLDEN"] == "1" }

    /// The `Golden/` folder beside `testFile` (pass nothing: the caller's `#filePath`).
    public init(normalization: GoldenNormalization = .none, testFile: String = #filePath) {
        directory = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
        self.normalization = normalization
    }

    /// Compares a JSON value (as `JSONSerialization` reads it) with the golden file `name`, or
    /// writes it when updating.
    ///
    /// - Throws: ``GoldenMismatch`` when they differ or the file is missing.
    public func check(_ value: Any, named name: String) throws {
        if let mismatch = try mismatch(value, named: name) { throw mismatch }
    }

    /// The difference between a JSON value and the golden file `name`, nil when they match (or
    /// when updating: the file is then written). Tests that check several files record each
    /// mismatch as an issue and go on, so one run shows every diff.
    ///
    /// - Throws: when the value cannot be serialized or the file cannot be written.
    public func mismatch(_ value: Any, named name: String) throws -> GoldenMismatch? {
        let file = directory.appendingPathComponent("\(name).json")
        let actual = try Self.canonical(normalization.apply(to: value))
        if Self.isUpdating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file, options: .atomic)
            return nil
        }
        guard let stored = try? Data(contentsOf: file) else {
            return GoldenMismatch(file: file, report: "the golden file does not exist; the actual output is:\n\(actual)")
        }
        let expected: String
        do {
            expected = try Self.canonical(normalization.apply(to: try JSONSerialization.jsonObject(with: stored, options: [.fragmentsAllowed])))
        } catch {
            return GoldenMismatch(file: file, report: "the golden file is not valid JSON (\(error)); the actual output is:\n\(actual)")
        }
        return expected == actual ? nil : GoldenMismatch(file: file, report: LineDiff.render(expected: expected, actual: actual))
    }

    /// Pretty-printed, key-sorted JSON text with a final newline: the form the files are written in
    /// and both sides are compared in.
    public static func canonical(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// A golden file that does not match the output, with a readable diff and how to accept the
/// change.
public struct GoldenMismatch: Error, CustomStringConvertible {
    public let file: URL
    public let report: String

    public var description: String {
        """
        golden file \(file.lastPathComponent) (\(file.path)) does not match the output.
        \(report)
        If the change is intended, regenerate the golden files: \(GoldenFiles.updateCommand)
        """
    }
}

/// What differs legitimately between runs and is replaced by a placeholder before comparing:
/// the values of some keys wherever they occur, and pattern matches inside any string.
public struct GoldenNormalization: Sendable {
    /// A key whose value (whatever its type) is replaced by `placeholder`.
    public var keys: [String: String]
    /// Regular expressions whose matches inside strings (keys and values) become a placeholder,
    /// in order.
    public var patterns: [(pattern: String, placeholder: String)]

    public init(keys: [String: String] = [:], patterns: [(pattern: String, placeholder: String)] = []) {
        self.keys = keys
        self.patterns = patterns
    }

    /// Nothing replaced: the output is deterministic as is.
    public static let none = GoldenNormalization()

    /// Any UUID, upper or lower case.
    public static let uuidPattern = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"

    /// Returns `value` with every rule applied.
    public func apply(to value: Any) throws -> Any {
        let expressions = try patterns.map { (try NSRegularExpression(pattern: $0.pattern), $0.placeholder) }
        return rewrite(value, expressions)
    }

    private func rewrite(_ value: Any, _ expressions: [(NSRegularExpression, String)]) -> Any {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, member) in object {
                result[replace(key, expressions)] = keys[key].map { $0 as Any } ?? rewrite(member, expressions)
            }
            return result
        case let array as [Any]:
            return array.map { rewrite($0, expressions) }
        case let text as String:
            return replace(text, expressions)
        default:
            return value
        }
    }

    private func replace(_ text: String, _ expressions: [(NSRegularExpression, String)]) -> String {
        var text = text
        for (expression, placeholder) in expressions {
            text = expression.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: NSRegularExpression.escapedTemplate(for: placeholder))
        }
        return text
    }
}

/// A line diff of two texts (longest common subsequence), unchanged runs shortened to their
/// context, for failure messages.
enum LineDiff {
    static func render(expected: String, actual: String, context: Int = 3) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [(mark: Character, text: String)] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append((" ", old[i]))
                i += 1
                j += 1
            } else if i < old.count, j == new.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                lines.append(("-", old[i]))
                i += 1
            } else {
                lines.append(("+", new[j]))
                j += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        var output = ["--- golden file", "+++ actual output"]
        var lastShown = -1
        for index in lines.indices {
            guard changed.contains(where: { abs($0 - index) <= context }) else { continue }
            if index > lastShown + 1 { output.append("@@ …") }
            output.append("\(lines[index].mark) \(lines[index].text)")
            lastShown = index
        }
        if lastShown < lines.count - 1 { output.append("@@ …") }
        return output.joined(separator: "\n")
    }
}
