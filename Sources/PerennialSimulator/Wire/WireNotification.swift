public import PerennialAppStore

/// One notification as Apple sends it: the V2 body, its decoded payload (for assertions and
/// logs), and the V1 body when V1 has an equivalent.
public struct WireNotification: Hashable, Sendable {
    /// The lifecycle's intent this notification carries out.
    public let intent: NotificationIntent
    /// What the V2 body's JWS signs.
    public let payload: ResponseBodyV2DecodedPayload
    /// The V2 HTTP body, `{"signedPayload": "<JWS>"}`.
    public let body: ResponseBodyV2
    /// The V1 HTTP body; nil for V2-only kinds.
    public let v1: NotificationV1?
}
