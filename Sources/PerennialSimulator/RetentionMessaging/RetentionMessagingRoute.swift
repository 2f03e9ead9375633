/// The Retention Messaging API endpoints of the simulated App Store Server API.
enum RetentionMessagingRoute: Equatable {
    case uploadImage(imageIdentifier: String)
    case deleteImage(imageIdentifier: String)
    case imageList
    case uploadMessage(messageIdentifier: String)
    case deleteMessage(messageIdentifier: String)
    case messageList
    case configureDefaultMessage(productID: String, locale: String)
    case deleteDefaultMessage(productID: String, locale: String)
    case defaultMessage(productID: String, locale: String)
    case configureRealtimeURL
    case realtimeURL
    case deleteRealtimeURL
    case initiatePerformanceTest
    case performanceTestResult(requestID: String)

    /// Path patterns (nil = a parameter) and methods; `list` before `{identifier}`, which would take it.
    static var table: [([String?], String, ([String]) -> RetentionMessagingRoute)] {
        let messaging = ["inApps", "v1", "messaging"]
        return [
            (messaging + ["image", "list"], "GET", { _ in .imageList }),
            (messaging + ["image", nil], "PUT", { .uploadImage(imageIdentifier: $0[0]) }),
            (messaging + ["image", nil], "DELETE", { .deleteImage(imageIdentifier: $0[0]) }),
            (messaging + ["message", "list"], "GET", { _ in .messageList }),
            (messaging + ["message", nil], "PUT", { .uploadMessage(messageIdentifier: $0[0]) }),
            (messaging + ["message", nil], "DELETE", { .deleteMessage(messageIdentifier: $0[0]) }),
            (messaging + ["default", nil, nil], "PUT", { .configureDefaultMessage(productID: $0[0], locale: $0[1]) }),
            (messaging + ["default", nil, nil], "DELETE", { .deleteDefaultMessage(productID: $0[0], locale: $0[1]) }),
            (messaging + ["default", nil, nil], "GET", { .defaultMessage(productID: $0[0], locale: $0[1]) }),
            (messaging + ["realtime", "url"], "PUT", { _ in .configureRealtimeURL }),
            (messaging + ["realtime", "url"], "GET", { _ in .realtimeURL }),
            (messaging + ["realtime", "url"], "DELETE", { _ in .deleteRealtimeURL }),
            (messaging + ["performanceTest"], "POST", { _ in .initiatePerformanceTest }),
            (messaging + ["performanceTest", "result", nil], "GET", { .performanceTestResult(requestID: $0[0]) }),
        ]
    }
}
