/// What the real server received from the SDK, counted on the device side: posts per transaction
/// id and the largest number of posts in flight at once.
///
/// The server has no request-counting hook, so the tests put ``CountingServerAPI`` between the SDK
/// and the real `URLSessionServerAPI` (the SDK accepts any `ServerAPI`), which sees every upload.
actor UploadCounter {
    private(set) var postsByTransaction: [String: Int] = [:]
    private(set) var inFlight = 0
    private(set) var maxInFlight = 0

    /// Total posts of signed transactions.
    var totalPosts: Int { postsByTransaction.values.reduce(0, +) }

    func began(transactionID: String) {
        postsByTransaction[transactionID, default: 0] += 1
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
    }

    func ended() {
        inFlight -= 1
    }
}
