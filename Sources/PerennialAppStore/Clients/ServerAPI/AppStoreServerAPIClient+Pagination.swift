public import Foundation

/// Walking every page of the paginated endpoints (transaction history, refund history,
/// notification history).
extension AppStoreServerAPIClient {
    /// The cursor fields every paginated answer carries.
    private struct PageCursor: Decodable {
        let hasMore: Bool?
        let revision: String?
        let paginationToken: String?
    }

    /// Fetches the endpoint's first page and follows `hasMore` with the returned cursor until the
    /// last page; returns each page's body in order. A non-paginated endpoint yields one page.
    ///
    /// A cursor Apple already returned ends the walk with ``AppStoreServerAPIError/decoding(_:)``
    /// instead of looping forever.
    public func allPages(_ endpoint: ServerAPIEndpoint) async throws(AppStoreServerAPIError) -> [Data] {
        var pages: [Data] = []
        var seenCursors: Set<String> = []
        var current = endpoint
        while true {
            let body = try await sendReturningData(current)
            pages.append(body)
            guard let pagination = endpoint.pagination else { return pages }
            let cursor: PageCursor
            do {
                cursor = try JSONDecoder().decode(PageCursor.self, from: body)
            } catch {
                throw .decoding("page \(pages.count) of \(endpoint.path) has no readable cursor: \(error)")
            }
            guard cursor.hasMore == true else { return pages }
            let next = pagination == .revision ? cursor.revision : cursor.paginationToken
            guard let next, !next.isEmpty else {
                throw .decoding("page \(pages.count) of \(endpoint.path) has hasMore but no \(pagination.parameter)")
            }
            guard seenCursors.insert(next).inserted else {
                throw .decoding("page \(pages.count) of \(endpoint.path) repeats \(pagination.parameter) \(next)")
            }
            current = endpoint.page(after: next)
        }
    }

    /// Like ``allPages(_:)``, decoding each page as `Page`.
    public func allPages<Page: Decodable>(
        _ endpoint: ServerAPIEndpoint, as type: Page.Type
    ) async throws(AppStoreServerAPIError) -> [Page] {
        var decoded: [Page] = []
        for (index, body) in try await allPages(endpoint).enumerated() {
            do {
                decoded.append(try JSONDecoder().decode(Page.self, from: body))
            } catch {
                throw .decoding("page \(index + 1) of \(endpoint.path) as \(Page.self): \(error)")
            }
        }
        return decoded
    }
}
