import Foundation
import PerennialAppStore

/// A configuration value that may be a secret: written inline, or as `"env:NAME"` to read the
/// environment variable `NAME`, or `"file:PATH"` to read a file (a `.p8` key), so that secrets stay
/// out of the configuration file that is checked in.
public struct SecretValue: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The value as written in the configuration.
    public let reference: String

    /// A value as written (`"env:NAME"`, `"file:PATH"` or the literal value).
    public init(_ reference: String) { self.reference = reference }

    public init(stringLiteral value: String) { self.reference = value }

    public init(from decoder: any Decoder) throws {
        reference = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(reference)
    }

    /// Never prints the secret itself: logs show where it comes from.
    public var description: String {
        if reference.hasPrefix("env:") || reference.hasPrefix("file:") { return reference }
        return "<inline secret>"
    }

    /// The secret's value; `field` names the setting in errors.
    ///
    /// A `file:` value is trimmed of surrounding whitespace and newlines.
    ///
    /// - Throws: ``ConfigurationError/missingEnvironmentVariable(name:usedBy:)``; an unreadable file
    ///   or an empty value is ``ConfigurationError/invalidValue(field:value:reason:)``.
    public func resolve(field: String, environment: [String: String]) throws(ConfigurationError) -> String {
        let value: String
        if reference.hasPrefix("env:") {
            let name = String(reference.dropFirst(4))
            guard let found = environment[name] else { throw .missingEnvironmentVariable(name: name, usedBy: field) }
            value = found
        } else if reference.hasPrefix("file:") {
            let path = String(reference.dropFirst(5))
            do {
                // `echo key > file` ends the file with a newline, which no key holds.
                value = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw .invalidValue(field: field, value: reference, reason: "cannot read \(path): \(SystemErrorReason.of(error))")
            }
        } else {
            value = reference
        }
        guard !value.isEmpty else { throw .invalidValue(field: field, value: description, reason: "empty") }
        return value
    }

    /// The same reference with a relative `file:` path made absolute against `directory`.
    func resolvingPath(relativeTo directory: URL) -> SecretValue {
        guard reference.hasPrefix("file:") else { return self }
        return SecretValue("file:" + ConfigurationPaths.absolute(String(reference.dropFirst(5)), relativeTo: directory))
    }
}
