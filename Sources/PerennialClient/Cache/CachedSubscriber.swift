import Foundation

/// The last server answer and the device's clocks when it arrived: enough to estimate the server's
/// time later without trusting the device's wall clock.
///
/// On disk a signed answer is kept as the server sent it, bytes and signature (``SignedAnswer``),
/// instead of re-encoded JSON, so that ``SubscriberCache`` can verify it again when it reads it back.
struct CachedSubscriber: Sendable, Equatable {
    let response: SubscriberResponse
    /// The device's wall clock at receipt (used only after a reboot, see ``EntitlementCache``).
    let receivedAt: Date
    /// The device's monotonic clock at receipt.
    let receivedUptime: TimeInterval
    /// The boot that uptime counts from (``PerennialClock/boot``); nil when unknown, as in a cache
    /// written by an SDK that did not record it.
    var receivedBoot: String?

    private enum CodingKeys: String, CodingKey {
        case response, signedAnswer, receivedAt, receivedUptime, receivedBoot
    }
}

extension CachedSubscriber: Codable {
    /// Reads a signed answer from its bytes; whether they verify is for ``SubscriberCache`` to check.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let signed = try container.decodeIfPresent(SignedAnswer.self, forKey: .signedAnswer) {
            var response = try WireJSON.decoder().decode(SubscriberResponse.self, from: signed.body)
            response.signed = signed
            self.response = response
        } else {
            response = try container.decode(SubscriberResponse.self, forKey: .response)
        }
        receivedAt = try container.decode(Date.self, forKey: .receivedAt)
        receivedUptime = try container.decode(TimeInterval.self, forKey: .receivedUptime)
        receivedBoot = try container.decodeIfPresent(String.self, forKey: .receivedBoot)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let signed = response.signed {
            try container.encode(signed, forKey: .signedAnswer)
        } else {
            try container.encode(response, forKey: .response)
        }
        try container.encode(receivedAt, forKey: .receivedAt)
        try container.encode(receivedUptime, forKey: .receivedUptime)
        try container.encodeIfPresent(receivedBoot, forKey: .receivedBoot)
    }
}
