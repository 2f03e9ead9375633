import Foundation
import Testing
@testable import PerennialClient

@Suite struct URLSessionServerAPITests {
    static let subscriberJSON = """
        {"serverTime":"2026-11-21T10:00:00.000Z","subscriber":{"appUserId":"al ice/1",
         "entitlements":{"pro":{"isActive":true,"productId":"pro.monthly","expiresDate":"2026-12-21T10:00:00.000Z",
                                "originalTransactionId":"100","transactionId":"101"},
                         "lifetime":{"isActive":true,"productId":"unlock","expiresDate":null,"originalTransactionId":"7","transactionId":"7"}},
         "subscriptions":[{"originalTransactionId":"100","productId":"pro.monthly","groupId":"g","status":"inGracePeriod",
                           "expiresDate":"2026-11-20T10:00:00.000Z","accessExpiresDate":"2026-12-21T10:00:00.000Z","willRenew":true,
                           "periodType":"normal","renewalProductId":null,"environment":"Sandbox"}],
         "purchases":[{"productId":"unlock","transactionId":"7","originalTransactionId":"7","purchaseDate":"2026-01-01T00:00:00Z","isActive":true}]},
         "transfer":{"previousOwner":"bob"}}
        """

    @Test func postingATransactionSpeaksTheContract() async throws {
        let stub = StubHTTP { _ in .init(status: 200, body: Self.subscriberJSON) }
        let api = URLSessionServerAPI(baseURL: stub.baseURL, publicKey: "pk_live", userToken: { "jwt-for-\($0)" }, session: stub.session)
        let response = try await api.postTransaction("a.b.c", appUserID: "al ice/1")

        let request = try #require(stub.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/subscribers/al%20ice%2F1/transactions")
        #expect(request.headers["Authorization"] == "Bearer pk_live")
        #expect(request.headers["X-Perennial-User-Token"] == "jwt-for-al ice/1")
        #expect(request.json as? [String: String] == ["signedTransaction": "a.b.c"])

        #expect(response.serverTime == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(response.subscriber.appUserID == "al ice/1")
        #expect(response.subscriber.entitlements["lifetime"]?.expiresDate == nil)
        #expect(response.subscriber.entitlements["pro"]?.transactionID == "101")
        #expect(response.subscriber.subscriptions.first?.status == .inGracePeriod)
        #expect(response.subscriber.purchases.first?.purchaseDate == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(response.transfer == SubscriberTransfer(previousOwner: "bob"))
    }

    /// The log-in names the logged-in user in the path, the anonymous one in the body, and the
    /// answer says when the server's policy kept the anonymous purchases.
    @Test func loggingInSpeaksTheContract() async throws {
        let kept = Self.subscriberJSON.replacingOccurrences(of: #""transfer":{"previousOwner":"bob"}"#, with: #""kept":{"owner":"$anonymous:6f9619ff"}"#)
        let stub = StubHTTP { _ in .init(status: 200, body: kept) }
        let api = URLSessionServerAPI(baseURL: stub.baseURL, publicKey: "pk", userToken: { "jwt-for-\($0)" }, session: stub.session)
        let response = try await api.logIn(appUserID: "al ice/1", anonymousAppUserID: "$anonymous:6f9619ff")

        let request = try #require(stub.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/subscribers/al%20ice%2F1/log-in")
        #expect(request.headers["X-Perennial-User-Token"] == "jwt-for-al ice/1")
        #expect(request.json as? [String: String] == ["anonymousAppUserId": "$anonymous:6f9619ff"])
        #expect(response.kept == SubscriberKept(owner: "$anonymous:6f9619ff") && response.transfer == nil)
    }

    @Test func theOtherRoutesSpeakTheContract() async throws {
        let stub = StubHTTP { request in
            switch request.path {
            case "/v1/subscribers/alice/app-account-token": .init(status: 200, body: #"{"appAccountToken":"6f9619ff-8b86-d011-b42d-00c04fc964ff"}"#)
            case "/v1/subscribers/alice/eligibility": .init(status: 200, body: #"{"eligibility":{"a":"eligible","b":"ineligible","c":"someday"}}"#)
            case "/v1/subscribers/alice/offers/sign":
                .init(status: 200, body: #"{"keyIdentifier":"K","nonce":"6f9619ff-8b86-d011-b42d-00c04fc964ff","timestamp":1700000000000,"signature":"c2ln"}"#)
            default: .init(status: 200, body: Self.subscriberJSON)
            }
        }
        let api = URLSessionServerAPI(baseURL: stub.baseURL, publicKey: "pk", session: stub.session)
        #expect(try await api.appAccountToken(appUserID: "alice") == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        #expect(try await api.eligibility(productIDs: ["a", "b", "c"], appUserID: "alice") == ["a": .eligible, "b": .ineligible, "c": IntroEligibility(rawValue: "someday")])
        let offer = try await api.signOffer(productID: "p", offerID: "o", appUserID: "alice")
        #expect(offer == SignedOffer(keyIdentifier: "K", nonce: "6f9619ff-8b86-d011-b42d-00c04fc964ff", timestamp: 1_700_000_000_000, signature: "c2ln"))
        _ = try await api.postReceipt("TUlJ", appUserID: "alice")
        _ = try await api.subscriber(appUserID: "alice")

        let requests = stub.requests.map { "\($0.method) \($0.path)" }
        #expect(requests == [
            "GET /v1/subscribers/alice/app-account-token", "POST /v1/subscribers/alice/eligibility",
            "POST /v1/subscribers/alice/offers/sign", "POST /v1/subscribers/alice/receipts", "GET /v1/subscribers/alice",
        ])
        #expect(stub.requests[1].json["productIds"] as? [String] == ["a", "b", "c"])
        #expect(stub.requests[2].json as? [String: String] == ["productId": "p", "offerId": "o"])
        #expect(stub.requests[3].json as? [String: String] == ["receipt": "TUlJ"])
        #expect(stub.requests[4].headers["X-Perennial-User-Token"] == nil)
    }

    /// The device's storefront and version go in the query (and stay out when unknown); the
    /// metadata is read as the JSON the operator wrote, numbers keeping their kind.
    @Test func offeringsSpeakTheContract() async throws {
        let body = """
            {"current":null,"offerings":[{"id":"winter-sale","products":["pro.yearly","pro.monthly"],"priority":10,"isDefault":false,
             "metadata":{"en":{"title":"Winter","discount":0.5,"order":[2,1],"badge":null,"show":true}},
             "targeting":{"storefronts":["DEU"],"minimumAppVersion":"2.0","audiences":["lapsed","winBack"]}}]}
            """
        let stub = StubHTTP { _ in .init(status: 200, body: body) }
        let api = URLSessionServerAPI(baseURL: stub.baseURL, publicKey: "pk", session: stub.session)
        let answer = try await api.offerings(appUserID: "al ice", storefront: "DEU", appVersion: "2.10.1")
        _ = try await api.offerings(appUserID: "al ice", storefront: nil, appVersion: nil)

        #expect(stub.requests.map { "\($0.method) \($0.path)?\($0.query ?? "")" } == [
            "GET /v1/subscribers/al%20ice/offerings?storefront=DEU&appVersion=2.10.1", "GET /v1/subscribers/al%20ice/offerings?",
        ])
        #expect(answer.current == nil)
        let sale = try #require(answer.offerings.first)
        #expect(sale.products == ["pro.yearly", "pro.monthly"] && sale.priority == 10 && !sale.isDefault)
        #expect(sale.targeting == OfferingTargetingRules(storefronts: ["DEU"], minimumAppVersion: "2.0", audiences: ["lapsed", "winBack"]))
        #expect(sale.metadata["en"] == .object([
            "title": .string("Winter"), "discount": .number(0.5), "order": .array([.integer(2), .integer(1)]), "badge": .null, "show": .bool(true),
        ]))
        struct Paywall: Decodable, Equatable {
            let title: String
            let order: [Int]
        }
        #expect(try sale.metadata["en"]?.decode(Paywall.self) == Paywall(title: "Winter", order: [2, 1]))
    }

    @Test(arguments: [
        (401, #"{"error":"invalidKey","message":"unknown public key"}"#, ServerError.http(status: 401, code: "invalidKey", message: "unknown public key")),
        (503, "upstream down", ServerError.http(status: 503, code: nil, message: nil)),
        (200, #"{"serverTime":"yesterday"}"#, nil),
    ])
    func failuresAreTyped(status: Int, body: String, expected: ServerError?) async {
        let stub = StubHTTP { _ in .init(status: status, body: body) }
        let api = URLSessionServerAPI(baseURL: stub.baseURL, publicKey: "pk", session: stub.session)
        do {
            _ = try await api.subscriber(appUserID: "alice")
            Issue.record("expected a failure")
        } catch {
            if let expected {
                #expect(error == expected)
            } else {
                guard case .decoding = error else { Issue.record("expected a decoding error, got \(error)"); return }
            }
            #expect(error.isTransient == (status == 503))
        }
    }

    @Test func anUnreachableServerIsATransientFailure() async {
        let api = URLSessionServerAPI(baseURL: URL(string: "http://127.0.0.1:1")!, publicKey: "pk")
        do {
            _ = try await api.subscriber(appUserID: "alice")
            Issue.record("expected a failure")
        } catch {
            guard case .unreachable = error else { Issue.record("expected unreachable, got \(error)"); return }
            #expect(error.isTransient)
        }
    }

    @Test func responsesRoundTripInTheWireFormat() throws {
        let decoded = try WireJSON.decoder().decode(SubscriberResponse.self, from: Data(Self.subscriberJSON.utf8))
        let encoded = try WireJSON.encoder().encode(decoded)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""serverTime":"2026-11-21T10:00:00.000Z""#))
        #expect(text.contains(#""expiresDate":null"#))
        #expect(try WireJSON.decoder().decode(SubscriberResponse.self, from: encoded) == decoded)
    }
}
