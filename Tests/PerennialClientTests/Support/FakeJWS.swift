import Foundation

/// Unsigned stand-ins for StoreKit 2 JWS transactions: the SDK only reads the payload's ids.
enum FakeJWS {
    static func make(transactionID: String, productID: String, originalTransactionID: String? = nil, revoked: Bool = false) -> String {
        var payload: [String: Any] = [
            "transactionId": transactionID, "originalTransactionId": originalTransactionID ?? transactionID, "productId": productID,
        ]
        if revoked { payload["revocationDate"] = 1_800_000_000_000 }
        let json = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        return "eyJhbGciOiJFUzI1NiJ9.\(base64URL(json)).c2lnbmF0dXJl"
    }

    static func transactionID(of jws: String) -> String {
        let part = jws.split(separator: ".")[1]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let object = try! JSONSerialization.jsonObject(with: Data(base64Encoded: base64)!) as! [String: Any]
        return object["transactionId"] as! String
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
