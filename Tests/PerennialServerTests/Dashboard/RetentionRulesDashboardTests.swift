import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialStorage
import Testing

/// The dashboard's retention rules page and the subscriber page's retention offer: the form goes
/// through the admin API's actions (the same refusals, storing nothing), needs the full scope and
/// the session's token, disables a rule by unticking it, and prints what operators typed escaped.
@Suite struct RetentionRulesDashboardTests {
    static let path = "/dashboard/apps/demo/retention-rules"

    @Test func aRuleIsAddedDisabledAndRemovedFromTheForm() async throws {
        let support = AdminKeyConfiguration(name: "desk", key: "sk_support", scope: .support)
        let server = try await ServerHarness(adminKeys: [support])
        try await server.test { client in
            try await RetentionRuleAdminTests.addOffering(client)
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let empty = try await admin.get(Self.path).text
            #expect(empty.contains("No retention rule yet") && empty.contains(#"<option value="stay">stay</option>"#))
            let form = [
                "csrf": admin.csrfToken, "id": "keep", "name": "<i>Keep</i>", "trigger": "autoRenewOff", "products": "pro.monthly",
                "offeringId": "stay", "offerType": "promotional", "offerProductId": "pro.monthly", "offerId": "stay50", "priority": "2",
                "validForDays": "7", "enabled": "on",
            ]

            #expect(try await admin.post(Self.path, form: form.filter { $0.key != "csrf" }).status == .forbidden)
            let desk = try await DashboardClient.signIn(client, key: "sk_support")
            #expect(try await desk.post(Self.path, form: form.merging(["csrf": desk.csrfToken]) { $1 }).status == .forbidden)
            let refusals: [([String: String], String)] = [
                (["trigger": "refund"], "not a trigger"),
                (["validForDays": ""], "validForDays must say"),
                (["validForDays": "999"], "validForDays is 1–365"),
                (["priority": "top"], "priority must be a whole number"),
                (["offeringId": "", "offerType": ""], "a rule chooses an offeringId, an offer, or both"),
                (["offerId": ""], "offer.offerId"),
            ]
            for (change, message) in refusals {
                let refused = try await admin.post(Self.path, form: form.merging(change) { $1 })
                #expect(refused.status == .badRequest && refused.text.contains(message), "\(change): \(refused.status) \(refused.text)")
            }
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).isEmpty)

            let added = try await admin.post(Self.path, form: form)
            #expect(added.status == .seeOther && added.headers[.location] == Self.path, "\(added.status) \(added.text)")
            let stored = try #require(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).first)
            #expect(stored.name == "<i>Keep</i>" && stored.trigger == .autoRenewOff && stored.productIDs == ["pro.monthly"] && stored.priority == 2)
            #expect(stored.offeringID == "stay" && stored.offer == RetentionRuleOffer(type: .promotional, productID: "pro.monthly", offerID: "stay50"))
            #expect(stored.isEnabled && stored.validForDays == 7 && stored.updatedBy == "admin")
            let list = try await admin.get(Self.path).text
            #expect(list.contains("&lt;i&gt;Keep&lt;/i&gt;") && !list.contains("<i>Keep</i>"))
            #expect(list.contains("offering stay and promotional offer stay50 on pro.monthly") && list.contains("enabled"))

            // Edited without "enabled": disabled, everything else as the form says.
            let edit = try await admin.get("\(Self.path)?edit=keep").text
            #expect(edit.contains(#"<option value="promotional" selected>"#) && edit.contains(#"<option selected>autoRenewOff</option>"#))
            var disabled = form.merging(["replacing": "keep"]) { $1 }
            disabled["enabled"] = nil
            #expect(try await admin.post(Self.path, form: disabled).status == .seeOther)
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).first?.isEnabled == false)
            #expect(try await admin.get(Self.path).text.contains(#"<span class="badge">disabled</span>"#))

            #expect(try await admin.get("\(Self.path)?edit=missing").status == .notFound)
            #expect(try await desk.post("\(Self.path)/keep/delete", form: ["csrf": desk.csrfToken]).status == .forbidden)
            #expect(try await admin.post("\(Self.path)/keep/delete", form: ["csrf": admin.csrfToken]).status == .seeOther)
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).isEmpty)
        }
    }

    @Test func theSubscriberPageShowsTheChoiceThatHolds() async throws {
        try await RetentionRuleOfferingsTests.afterAlicesPurchase { server, client, story in
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = "/dashboard/apps/demo/subscribers/alice"
            #expect(try await admin.get(page).text.contains("No retention rule's choice holds for this user."))

            server.clock.now = story.offAt
            #expect(try await client.notifyV2(story.off).status == .ok)
            let shown = try await admin.get(page).text
            #expect(shown.contains(#"<p id="retention-choice">Rule <a href="/dashboard/apps/demo/retention-rules?edit=keep">keep</a>"#), "\(shown)")
            #expect(shown.contains("chose offering stay and promotional offer stay50 on pro.monthly when autoRenewOff happened"))

            server.clock.now = story.onAt
            #expect(try await client.notifyV2(story.on).status == .ok)
            #expect(try await admin.get(page).text.contains("No retention rule's choice holds for this user."))
        }
    }
}
