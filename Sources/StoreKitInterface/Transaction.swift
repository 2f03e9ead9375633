public import Foundation

/// https://developer.apple.com/documentation/storekit/transaction
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Hashable, Identifiable, Sendable {
    /// https://developer.apple.com/documentation/storekit/transaction/id
    public let id: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/originalid
    public let originalID: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/productid
    public let productID: String
    /// https://developer.apple.com/documentation/storekit/transaction/purchasedate
    public let purchaseDate: Date
    /// https://developer.apple.com/documentation/storekit/transaction/expirationdate
    public let expirationDate: Date?
    /// https://developer.apple.com/documentation/storekit/transaction/revocationdate
    public let revocationDate: Date?
    /// https://developer.apple.com/documentation/storekit/transaction/appaccounttoken
    public let appAccountToken: UUID?
    /// https://developer.apple.com/documentation/storekit/transaction/productType
    public let productType: Product.ProductType

    /// Linux-only test scaffolding: the scripted App Store this transaction belongs to.
    let appStore: ScriptedAppStore?

    /// Linux-only test scaffolding: a transaction of the scripted App Store.
    init(
        id: UInt64, originalID: UInt64, productID: String, productType: Product.ProductType, purchaseDate: Date,
        expirationDate: Date?, revocationDate: Date?, appAccountToken: UUID?, appStore: ScriptedAppStore?
    ) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.appAccountToken = appAccountToken
        self.appStore = appStore
    }

    /// https://developer.apple.com/documentation/storekit/transaction/finish()
    public func finish() async {
        appStore?.finish(id)
    }

    /// https://developer.apple.com/documentation/storekit/transaction/updates
    public static var updates: Transaction.Transactions {
        Transactions(ScriptedAppStore.current.updatesStream())
    }

    /// https://developer.apple.com/documentation/storekit/transaction/unfinished
    public static var unfinished: Transaction.Transactions {
        Transactions(snapshot: ScriptedAppStore.current.unfinishedTransactions())
    }

    /// https://developer.apple.com/documentation/storekit/transaction/currententitlements
    public static var currentEntitlements: Transaction.Transactions {
        Transactions(snapshot: ScriptedAppStore.current.entitledTransactions())
    }

    /// https://developer.apple.com/documentation/storekit/transaction/transactions
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        private let stream: AsyncStream<Element>

        init(_ stream: AsyncStream<Element>) {
            self.stream = stream
        }

        init(snapshot: [Element]) {
            self.stream = AsyncStream { continuation in
                for element in snapshot { continuation.yield(element) }
                continuation.finish()
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator

            public mutating func next() async -> Element? {
                await base.next()
            }
        }
    }

    public static func == (lhs: Transaction, rhs: Transaction) -> Bool {
        lhs.id == rhs.id && lhs.revocationDate == rhs.revocationDate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

extension Transaction {
    /// Linux-only test scaffolding: what the scripted App Store signs (no signature; the payload only).
    var scriptedJWS: String {
        var payload: [String: any Sendable] = [
            "transactionId": String(id), "originalTransactionId": String(originalID), "productId": productID,
            "purchaseDate": purchaseDate.timeIntervalSince1970 * 1000,
        ]
        if let expirationDate { payload["expiresDate"] = expirationDate.timeIntervalSince1970 * 1000 }
        if let revocationDate { payload["revocationDate"] = revocationDate.timeIntervalSince1970 * 1000 }
        if let appAccountToken { payload["appAccountToken"] = appAccountToken.uuidString.lowercased() }
        return ScriptedJWS.make(payload)
    }
}
