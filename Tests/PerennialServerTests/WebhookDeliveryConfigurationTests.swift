import Foundation
import PerennialServer
import Testing

/// The `webhookDelivery` block of the configuration file: the lease and polling that several
/// processes on one database rely on (docs/configuration.md).
@Suite struct WebhookDeliveryConfigurationTests {
    @Test func absentTheJobKeepsItsDefaults() throws {
        let configuration = try ConfigurationLoader.decode(Data("{}".utf8))
        let settings = configuration.webhookDelivery.settings
        let defaults = WebhookDeliverySettings()
        #expect(settings.leaseDuration == defaults.leaseDuration)
        #expect(settings.pollInterval == defaults.pollInterval)
        #expect(settings.requestTimeout == defaults.requestTimeout)
    }

    @Test func theFileSetsTheLeaseAndPolling() throws {
        let configuration = try ConfigurationLoader.decode(
            Data(#"{"webhookDelivery": {"leaseSeconds": 5, "pollIntervalSeconds": 0.5, "requestTimeoutSeconds": 3}}"#.utf8))
        let settings = configuration.webhookDelivery.settings
        #expect(settings.leaseDuration == 5)
        #expect(settings.pollInterval == .milliseconds(500))
        #expect(settings.requestTimeout == .seconds(3))
    }

    @Test(arguments: [
        (#"{"leaseSeconds": 0}"#, "webhookDelivery.leaseSeconds"),
        (#"{"pollIntervalSeconds": -1}"#, "webhookDelivery.pollIntervalSeconds"),
        (#"{"leaseSeconds": 5}"#, "webhookDelivery.leaseSeconds"),
    ])
    func unusableTimingsAreRefusedNamingTheKey(block: String, path: String) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.decode(Data(#"{"webhookDelivery": \#(block)}"#.utf8))
        }
        guard case .malformed(let reported, _) = error else {
            Issue.record("expected a malformed-configuration error, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }
}
