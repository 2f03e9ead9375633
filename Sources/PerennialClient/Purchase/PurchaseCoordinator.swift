/// Lets one purchase of a product run at a time: a second call for the same product while the first
/// is in flight (a double tap, two buttons) joins the first's result instead of paying twice.
actor PurchaseCoordinator {
    private var inFlight: [String: Task<PurchaseResult, Never>] = [:]
    /// Calls that joined a purchase in flight instead of starting one, by product.
    private(set) var joined: [String: Int] = [:]

    /// Runs `perform` for `productID`, or waits for the run already in flight for it.
    func purchase(productID: String, perform: @escaping @Sendable () async -> PurchaseResult) async -> PurchaseResult {
        if let running = inFlight[productID] {
            joined[productID, default: 0] += 1
            return await running.value
        }
        let task = Task { await perform() }
        inFlight[productID] = task
        let result = await task.value
        inFlight[productID] = nil
        return result
    }
}
