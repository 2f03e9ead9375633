import Foundation
import Testing
@testable import PerennialClient
#if os(Linux)
import StoreKitInterface
#endif

@Suite struct SimulatorStoreTests {
    static let renewal = FakeJWS.make(transactionID: "2000", productID: "pro.monthly", originalTransactionID: "1000")
    static let refund = FakeJWS.make(transactionID: "1000", productID: "pro.monthly", revoked: true)

    static func simulator() -> StubHTTP {
        StubHTTP { request in
            switch (request.method, request.path) {
            case ("POST", "/simulator/v1/purchases"):
                if request.json["askToBuy"] as? Bool == true { return .init(status: 200, body: #"{"status":"pending","pendingId":"P1"}"#) }
                if request.json["productId"] as? String == "nope" {
                    return .init(status: 404, body: #"{"error":"productNotFound","message":"no product nope"}"#)
                }
                let jws = FakeJWS.make(transactionID: "1000", productID: request.json["productId"] as! String)
                return .init(
                    status: 200,
                    body: #"{"status":"purchased","signedTransaction":"\#(jws)","transactionId":"1000","originalTransactionId":"1000","receipt":"TUlJ"}"#)
            case ("GET", "/simulator/v1/accounts/alice/unfinished"):
                return .init(status: 200, body: #"{"signedTransactions":["\#(renewal)","\#(refund)"]}"#)
            case ("GET", "/simulator/v1/accounts/alice/entitlements"):
                return .init(status: 200, body: #"{"signedTransactions":["\#(renewal)"]}"#)
            case ("GET", "/simulator/v1/accounts/alice/receipt"):
                return .init(status: 200, body: #"{"receipt":"TUlJ"}"#)
            case ("POST", "/simulator/v1/accounts/alice/transactions/2000/finish"):
                return .init(status: 204, body: "")
            case ("POST", "/simulator/v1/accounts"):
                return .init(status: 201, body: "{}")
            case ("POST", "/simulator/v1/clock/advance"):
                return .init(status: 200, body: #"{"now":"2026-12-01T00:00:00.000Z","notifications":[]}"#)
            case ("GET", "/simulator/v1/clock"):
                return .init(status: 200, body: #"{"now":"2026-11-21T10:00:00.000Z"}"#)
            case ("POST", "/simulator/v1/pending/P1/approve"):
                return .init(status: 200, body: #"{"status":"purchased"}"#)
            default:
                return .init(status: 404, body: #"{"error":"notFound","message":"no route"}"#)
            }
        }
    }

    @Test func aPurchaseSpeaksTheDeviceAPI() async throws {
        let stub = Self.simulator()
        let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", session: stub.session)
        let token = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let offer = StoreOffer(type: "promotional", id: "winback", signature: SignedOffer(keyIdentifier: "K", nonce: "n", timestamp: 5, signature: "s"))
        let result = try await store.purchase(productID: "pro.monthly", appAccountToken: token, offer: offer)
        guard case .purchased(let transaction) = result else { Issue.record("expected purchased, got \(result)"); return }
        #expect(transaction.transactionID == "1000")
        #expect(transaction.productID == "pro.monthly")

        let body = try #require(stub.requests.first?.json)
        #expect(body["account"] as? String == "alice")
        #expect(body["productId"] as? String == "pro.monthly")
        #expect(body["appAccountToken"] as? String == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
        #expect(body["askToBuy"] as? Bool == false)
        let sentOffer = try #require(body["offer"] as? [String: Any])
        #expect(sentOffer["type"] as? String == "promotional")
        #expect(sentOffer["id"] as? String == "winback")
        #expect((sentOffer["signature"] as? [String: Any])?["keyIdentifier"] as? String == "K")
    }

    @Test func aPromotionalOfferTravelsInTheOneFormTheDeviceTakes() async throws {
        let signed = SignedOffer(keyIdentifier: "K", nonce: "n", timestamp: 5, signature: "s", compactJWS: "h.p.s")
        let offer = StoreOffer(type: "promotional", id: "winback", signature: signed)
        for acceptsJWS in [true, false] {
            let stub = Self.simulator()
            let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", acceptsJWSPromotionalOffers: acceptsJWS, session: stub.session)
            _ = try await store.purchase(productID: "pro.monthly", appAccountToken: nil, offer: offer)
            let sent = try #require(stub.requests.first?.json["offer"] as? [String: Any])
            #expect(sent["compactJWS"] as? String == (acceptsJWS ? "h.p.s" : nil))
            #expect((sent["signature"] as? [String: Any])?["nonce"] as? String == (acceptsJWS ? nil : "n"))
        }
    }

    /// The simulator has no App Store sheets and no App Store page to promote from: the sheets say
    /// so without a request, and the promoted purchases end at once.
    #if os(Linux)
    @Test @MainActor func theSheetsAreUnsupportedAndNoPurchaseIsPromoted() async throws {
        let stub = Self.simulator()
        let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", session: stub.session)
        let scene = UIWindowScene()
        let unsupported = { (error: any Error) in PerennialError.store(error as? StoreError ?? .noReceipt).code == .unsupported }
        await #expect { try await store.showManageSubscriptions(in: scene) } throws: { unsupported($0) }
        await #expect { _ = try await store.requestRefund(transactionID: "1000", in: scene) } throws: { unsupported($0) }
        await #expect { try await store.presentOfferCodeRedemption(in: scene) } throws: { unsupported($0) }
        var intents = store.purchaseIntents().makeAsyncIterator()
        #expect(await intents.next() == nil)
        #expect(stub.requests.isEmpty)
    }
    #endif

    @Test func askToBuyAndCancelModes() async throws {
        let stub = Self.simulator()
        let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", session: stub.session)
        await store.setPurchaseMode(.askToBuy)
        #expect(try await store.purchase(productID: "pro.monthly", appAccountToken: nil, offer: nil) == .pending)
        #expect(await store.pendingIDs == ["P1"])
        await store.setPurchaseMode(.userCancels)
        #expect(try await store.purchase(productID: "pro.monthly", appAccountToken: nil, offer: nil) == .userCancelled)
        #expect(stub.requests.count == 1)
        await store.setPurchaseMode(.pay)
        await #expect(throws: StoreError.purchaseFailed(UnderlyingError(ServerError.http(status: 404, code: "productNotFound", message: "no product nope")))) {
            try await store.purchase(productID: "nope", appAccountToken: nil, offer: nil)
        }
    }

    @Test func unfinishedEntitlementsReceiptAndFinish() async throws {
        let stub = Self.simulator()
        let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", session: stub.session)
        let unfinished = try await store.unfinishedTransactions()
        #expect(unfinished.map(\.journalKey) == ["2000", "1000#revoked"])
        #expect(unfinished.first?.originalTransactionID == "1000")
        #expect(try await store.currentEntitlements().map(\.transactionID) == ["2000"])
        #expect(try await store.appReceipt() == "TUlJ")
        try await store.finish(transactionID: "2000")
        await #expect(throws: StoreError.simulator(.http(status: 404, code: "notFound", message: "no route"))) {
            try await store.finish(transactionID: "9")
        }
    }

    @Test func updatesYieldEachUnfinishedTransactionOnce() async throws {
        let stub = Self.simulator()
        let store = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", pollInterval: .milliseconds(5), session: stub.session)
        var updates = store.transactionUpdates().makeAsyncIterator()
        #expect(await updates.next()?.map(\.journalKey) == ["2000", "1000#revoked"])
        #expect(await eventually { stub.requests.count >= 3 })
        // Polls went on, but nothing was yielded twice: the next value would only be a new one.
    }

    @Test func productsComeFromTheGivenCatalog() async throws {
        let stub = Self.simulator()
        let bare = SimulatorStore(baseURL: stub.baseURL, accountID: "alice", session: stub.session)
        #expect(try await bare.products(for: ["a"]) == [StoreProduct(id: "a")])
        let catalog = SimulatorStore(
            baseURL: stub.baseURL, accountID: "alice", products: [StoreProduct(id: "a", displayName: "A"), StoreProduct(id: "b")],
            session: stub.session)
        #expect(try await catalog.products(for: ["a", "z"]) == [StoreProduct(id: "a", displayName: "A")])
    }

    @Test func theControlSideSpeaksTheContract() async throws {
        let stub = Self.simulator()
        let control = SimulatorControl(baseURL: stub.baseURL, session: stub.session)
        try await control.createAccount(id: "alice")
        #expect(try await control.now() == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(try await control.advanceClock(by: 300) == Date(timeIntervalSince1970: 1_796_083_200))
        try await control.approve(pendingID: "P1")
        let requests = stub.requests
        #expect(requests[0].json as? [String: String] == ["id": "alice", "storefront": "USA", "renewal": "renew"])
        #expect(requests[2].json["seconds"] as? Double == 300)
        #expect(requests.map(\.path).last == "/simulator/v1/pending/P1/approve")
    }
}
