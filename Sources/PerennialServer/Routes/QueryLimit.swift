import Hummingbird

/// The `?limit=` of an admin listing: 100 by default, at most 500.
enum QueryLimit {
    static let maximum = 500

    static func from(_ request: Request) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return 100 }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw APIError.malformed("limit must be an integer from 1 to \(maximum) (got '\(text)')")
        }
        return limit
    }
}
