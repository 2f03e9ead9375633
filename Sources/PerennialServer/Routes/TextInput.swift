import Foundation

/// Text a caller sends, bounded before anything is done with it: an identifier or a note that
/// is empty, too long or holds control characters is refused as malformed, before any write.
///
/// A NUL is cut off by SQLite and refused by PostgreSQL, other control characters make log lines
/// and signed messages lie (U+2063 separates the fields of Apple's legacy offer signature), and
/// an unbounded string is memory a caller chooses.
enum TextInput {
    /// The longest identifier (a product, an offer, an entitlement): App Store Connect's are
    /// shorter.
    static let maximumIdentifierLength = 100
    /// The longest text of an admin body (a reason kept in the timeline, a webhook URL, which has
    /// its own, shorter bound).
    static let maximumNoteLength = 4_096

    /// `text` as an identifier: 1 to `maximumLength` characters, no control or format character.
    static func identifier(_ text: String, named name: String, maximumLength: Int = maximumIdentifierLength) throws(APIError) -> String {
        try checked(text, named: name, maximumLength: maximumLength, allowingLineBreaks: false)
    }

    /// An optional note: at most ``maximumNoteLength`` characters, line breaks and tabs allowed.
    static func note(_ text: String?, named name: String) throws(APIError) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return try checked(text, named: name, maximumLength: maximumNoteLength, allowingLineBreaks: true)
    }

    static func checked(_ text: String, named name: String, maximumLength: Int, allowingLineBreaks: Bool) throws(APIError) -> String {
        guard !text.isEmpty, text.count <= maximumLength else {
            throw .malformed("\(name) must be 1–\(maximumLength) characters")
        }
        let refused = text.unicodeScalars.first { scalar in
            if allowingLineBreaks, scalar == "\n" || scalar == "\t" || scalar == "\r" { return false }
            return [.control, .format].contains(scalar.properties.generalCategory)
        }
        if let refused {
            let kind = refused.properties.generalCategory == .control ? "control" : "format"
            throw .malformed("\(name) contains the \(kind) character U+\(String(format: "%04X", refused.value))")
        }
        return text
    }
}
