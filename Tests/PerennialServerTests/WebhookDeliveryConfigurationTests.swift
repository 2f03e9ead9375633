import Foundation
import PerennialServer
import Testing

/// The `webhookDelivery` block of the configuration file: the lease and polling that several
/// processes on one database rely on (docs/configuration.md).
@Suite struct WebhookDeliveryConfigurationTests {
    @Test func absentTheJobKeepsItsDefaults() throws {
        let configuration = try ConfigurationLoader.decode(Data("{}".utf8))
        let options = configuration.webhookDelivery.options
        let defaults = WebhookDeliveryOptions()
        #expect(options.leaseDuration == defaults.leaseDuration)
        #expect(options.pollInterval == defaults.pollInterval)
        #expect(options.requestTimeout == defaults.requestTimeout)
    }

    @Test func theFileSetsTheLeaseAndPolling() throws {
        let configuration = try ConfigurationLoader.decode(
            Data(#"{"webhookDelivery": {"leaseSeconds": 5, "pollIntervalSeconds": 0.5, "requestTimeoutSeconds": 3}}"#.utf8))
        let options = configuration.webhookDelivery.options
        #expect(options.leaseDuration == 5)
        #expect(options.pollInterval == .milliseconds(500))
        #expect(options.requestTimeout == .seconds(3))
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
