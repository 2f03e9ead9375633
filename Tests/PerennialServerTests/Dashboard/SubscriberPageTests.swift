import PerennialWire
import Foundation
@testable import PerennialServer
import Testing

/// A long-lived subscriber's page shows the newest timeline entries only, and says how many older
/// ones the admin API has.
@Suite struct SubscriberPageTests {
    @Test func theTimelineShowsTheNewestHundredEntries() async throws {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let entries = (1...130).map { index in
            TimelineResponse.Entry(
                id: Int64(index), at: start.addingTimeInterval(Double(index) * 3600), kind: "evidenceApplied",
                originalTransactionIds: ["2000000000000001"], eventIds: [],
                evidence: TimelineResponse.Evidence(
                    id: Int64(index), kind: "signedTransaction", receivedAt: start, presentedBy: nil,
                    rawBase64: Data(#"{"n":\#(index)}"#.utf8).base64EncodedString()))
        }
        let answer = try WireJSON.decoder().decode(
            SubscriberResponse.self,
            from: Data(#"{"serverTime":"2026-01-01T00:00:00.000Z","subscriber":{"appUserId":"alice","entitlements":{},"subscriptions":[],"purchases":[]}}"#.utf8))
        let page = await SubscriberPage.make(appID: "demo", answer: answer, timeline: TimelineResponse(appUserId: "alice", entries: entries))
        let html = page.body(controls: SubscriberPage.Controls(csrfToken: "t", canSupport: true, canAskApple: false, entitlementIDs: [])).description
        #expect(html.components(separatedBy: "<li>").count - 1 == SubscriberPage.timelineLimit)
        #expect(html.contains("Evidence #130:") && html.contains("Evidence #31:") && !html.contains("Evidence #30:"))
        // Newest first.
        #expect(try #require(html.range(of: "Evidence #130:")).lowerBound < (try #require(html.range(of: "Evidence #31:"))).lowerBound)
        #expect(html.contains("30 older entries are not shown"))
        // Plain JSON evidence is shown decoded too.
        #expect(html.contains("&quot;n&quot; : 130"))
    }
}
