/// An app's version as the App Store requires it (`CFBundleShortVersionString`): dotted whole
/// numbers. Compared number by number, with missing trailing numbers as zero, so "1.10" is after
/// "1.9" (text comparison says otherwise) and "2" is "2.0.0" — what an operator means by a range
/// such as "from 2.0 up to 3.1".
public struct AppVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The numbers as written ("1.10.0" keeps its three).
    public let components: [Int]

    /// The most numbers a version may have: Apple allows three, builds sometimes show a fourth.
    public static let maximumComponents = 4

    /// Parses `text`; nil unless it is 1 to ``maximumComponents`` dot-separated runs of ASCII
    /// digits (no sign, no suffix such as "-beta": the App Store accepts none).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...Self.maximumComponents).contains(parts.count) else { return nil }
        var components: [Int] = []
        for part in parts {
            guard (1...9).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            components.append(number)
        }
        self.components = components
    }

    public var description: String { components.map(String.init).joined(separator: ".") }

    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { compare(lhs, rhs) == 0 }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool { compare(lhs, rhs) < 0 }

    private static func compare(_ lhs: AppVersion, _ rhs: AppVersion) -> Int {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }
}

extension AppVersion: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = AppVersion(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a dotted numeric version")
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
