import Foundation
import Hummingbird
import PerennialStorage

/// The app user id of a route's `:appUserId` path component, percent-decoded (ids may contain
/// `/`, `@`, spaces…, which clients percent-encode).
enum PathUser {
    static let maximumLength = 512

    static func from(_ context: some RequestContext) throws(APIError) -> AppUserID {
        guard let raw = context.parameters.get("appUserId") else { throw .notFound("no app user id in the path") }
        // Most ids need no decoding, and Foundation's decoder is a measurable part of a read.
        let decoded = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : String(raw)
        guard let decoded else { throw .malformed("the app user id must be percent-encoded in the path") }
        return try checked(decoded, named: "the app user id")
    }

    /// `text` as an app user id: 1 to ``maximumLength`` characters, none a control character. A
    /// NUL is cut off by SQLite (`nul\0x` became `nul`, another user) and refused by PostgreSQL,
    /// and no account system hands out the others.
    static func checked(_ text: String, named name: String) throws(APIError) -> AppUserID {
        AppUserID(try TextInput.checked(text, named: name, maximumLength: maximumLength, allowingLineBreaks: false))
    }

    /// Whether `text` could be an app user id (a search box's query, which is not refused).
    static func isPossible(_ text: String) -> Bool {
        (try? checked(text, named: "")) != nil
    }
}
