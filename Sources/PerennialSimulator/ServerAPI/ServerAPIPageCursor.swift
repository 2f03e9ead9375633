import Foundation
import PerennialAppStore

/// The opaque `revision` / `paginationToken` of the simulated Server API: the sort key of the last
/// item a page returned, so the next page continues right after it even if new items were added
/// in between (as Apple's revisions do), and a walk visits every item once.
struct ServerAPIPageCursor: Equatable {
    /// Milliseconds of the item's sort date.
    let milliseconds: Int64
    /// The item's tie-breaking identifier (a transaction id or a notification UUID).
    let identifier: String

    /// Page size of every paginated endpoint, as Apple's.
    static let pageSize = 20

    /// The token text: base64url of `<ms>:<identifier>`.
    var token: String { Base64URL.encode(Data("\(milliseconds):\(identifier)".utf8)) }

    init(milliseconds: Int64, identifier: String) {
        self.milliseconds = milliseconds
        self.identifier = identifier
    }

    /// Parses a token this type produced; nil for anything else.
    init?(token: String) {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"), let milliseconds = Int64(text[..<colon])
        else { return nil }
        let identifier = String(text[text.index(after: colon)...])
        guard !identifier.isEmpty else { return nil }
        self.init(milliseconds: milliseconds, identifier: identifier)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
