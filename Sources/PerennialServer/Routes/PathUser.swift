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
        guard let decoded, !decoded.isEmpty, decoded.count <= maximumLength else {
            throw .malformed("the app user id must be 1–\(maximumLength) characters, percent-encoded")
        }
        return AppUserID(decoded)
    }
}
