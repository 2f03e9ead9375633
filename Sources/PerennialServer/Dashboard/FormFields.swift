import Foundation

/// How the dashboard's forms read their text fields: a browser sends every field, empty ones
/// too, so an empty or blank field means "not given", as a key left out of an admin API body.
enum FormFields {
    /// The field without surrounding blanks; nil when nothing is left.
    static func trimmed(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// Values separated by commas or blanks, in order.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }

    /// A whole number; nil when the field is empty.
    static func integer(_ text: String?, named name: String) throws(APIError) -> Int? {
        guard let text = trimmed(text) else { return nil }
        guard let number = Int(text) else { throw APIError.malformed("\(name) must be a whole number (got '\(text.prefix(40))')") }
        return number
    }
}
