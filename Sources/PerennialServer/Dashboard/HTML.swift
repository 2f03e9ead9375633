/// HTML text in which everything interpolated is escaped unless it is itself ``HTML``: a page
/// cannot print an app user id (chosen by clients) or a field of Apple's payloads as markup by
/// forgetting to escape it, because printing a `String` unescaped has no spelling.
struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var text: String

    init(stringLiteral value: String) {
        text = value
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    /// Markup written by the dashboard itself.
    private init(trusted: String) {
        text = trusted
    }

    var description: String { text }

    /// The concatenation of `parts`.
    static func join(_ parts: some Sequence<HTML>, separator: HTML = "") -> HTML {
        HTML(trusted: parts.map(\.text).joined(separator: separator.text))
    }

    /// `text` with the five characters that can end an element or an attribute replaced by
    /// entities; safe in element content and in quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        mutating func appendInterpolation(_ html: HTML) {
            text += html.text
        }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += HTML.escape(value.description)
        }

        mutating func appendInterpolation(_ value: (some CustomStringConvertible)?, or placeholder: String) {
            text += HTML.escape(value?.description ?? placeholder)
        }
    }
}
