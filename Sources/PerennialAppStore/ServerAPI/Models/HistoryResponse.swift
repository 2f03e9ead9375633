/// One page of Get Transaction History. `revision` is the cursor for the next page while
/// `hasMore` is true.
public struct HistoryResponse: Codable, Hashable, Sendable {
    public var revision: String?
    @Lenient<BooleanValue> public var hasMore: Bool?
    public var bundleId: String?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var environment: AppleEnvironment?
    /// JWS whose payloads are ``JWSTransactionDecodedPayload``s (at most 20).
    public var signedTransactions: [String]?

    /// Creates a page.
    public init(
        revision: String? = nil,
        hasMore: Bool? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        environment: AppleEnvironment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
