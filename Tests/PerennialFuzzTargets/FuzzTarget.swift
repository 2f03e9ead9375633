public import Foundation

/// One parser of data from outside the server, as a fuzzer drives it: any bytes in, and how the
/// parser took them.
///
/// A parser may accept the bytes or refuse them with its own typed error; any other error is a
/// finding, as a crash, a hang or unbounded memory are. The same targets serve the deterministic
/// fuzz suite that CI runs and the coverage-guided libFuzzer runs made on demand.
public struct FuzzTarget: Sendable {
    /// The target's name, also the name of its corpus directory.
    public let name: String
    private let parse: @Sendable (Data) async -> FuzzVerdict

    /// A target named `name` whose verdict `parse` gives (public for the tests of the runs).
    public init(_ name: String, parse: @escaping @Sendable (Data) async -> FuzzVerdict) {
        self.name = name
        self.parse = parse
    }

    /// The parser's verdict on `input`.
    public func run(_ input: Data) async -> FuzzVerdict {
        await parse(input)
    }
}

/// How a parser took one input.
public enum FuzzVerdict: Sendable, Equatable {
    /// It parsed (a target made of several parsers: at least one did, and none failed otherwise).
    case accepted
    /// It refused the input with its own typed error.
    case refused
    /// It threw an error that is not its own: the description names the type and the error.
    case unexpected(String)

    /// The verdict of a target made of several parsers run on the same input.
    static func combined(_ verdicts: [FuzzVerdict]) -> FuzzVerdict {
        if let unexpected = verdicts.first(where: { if case .unexpected = $0 { true } else { false } }) { return unexpected }
        return verdicts.contains(.accepted) ? .accepted : .refused
    }

    /// The verdict of a parser whose errors are untyped: `refusals` are its own, anything else is not.
    static func of(refusing refusals: [any Error.Type], _ parse: () async throws -> Void) async -> FuzzVerdict {
        do {
            try await parse()
            return .accepted
        } catch {
            let thrown = ObjectIdentifier(type(of: error))
            return refusals.contains { ObjectIdentifier($0) == thrown } ? .refused : .unexpected("\(type(of: error)): \(error)")
        }
    }

    /// The verdict of a parser with typed throws: whatever it throws is its own refusal, so only a
    /// crash, a hang or unbounded memory can be a finding.
    static func of<Refusal: Error>(_ parse: () async throws(Refusal) -> Void) async -> FuzzVerdict {
        do throws(Refusal) {
            try await parse()
            return .accepted
        } catch {
            return .refused
        }
    }
}
