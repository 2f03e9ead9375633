/// How a paginated App Store Server API endpoint hands out its next page.
///
/// History and refund history answer `hasMore` with a `revision` to send back as a query
/// parameter; notification history answers `hasMore` with a `paginationToken`.
public enum ServerAPIPagination: String, Sendable, Equatable {
    /// `hasMore` + `revision`, sent back as `?revision=`.
    case revision
    /// `hasMore` + `paginationToken`, sent back as `?paginationToken=`.
    case paginationToken

    /// The query parameter (and response field) carrying the cursor.
    var parameter: String { rawValue }
}
