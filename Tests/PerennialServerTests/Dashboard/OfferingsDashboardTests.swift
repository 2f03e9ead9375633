import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialStorage
import Testing

/// The dashboard's offerings page: the form goes through the admin API's actions (the same
/// refusals, shown on the page, storing nothing), needs the full scope and the session's token,
/// and prints what operators typed escaped.
@Suite struct OfferingsDashboardTests {
    static let path = "/dashboard/apps/demo/offerings"

    @Test func anOfferingIsAddedEditedAndRemovedFromTheForm() async throws {
        let support = AdminKeyConfiguration(name: "desk", key: "sk_support", scope: .support)
        let server = try await ServerHarness(adminKeys: [support])
        try await server.test { client in
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            #expect(try await admin.get(Self.path).text.contains("No offering yet"))
            let form = [
                "csrf": admin.csrfToken, "id": "sale", "products": "pro.monthly, basic.monthly", "priority": "4", "isDefault": "on",
                "storefronts": "usa deu", "minimumAppVersion": "2.1", "audienceLapsed": "on",
                "metadata": #"{"en": {"title": "<b>Sale</b>"}}"#,
            ]

            #expect(try await admin.post(Self.path, form: form.filter { $0.key != "csrf" }).status == .forbidden)
            let desk = try await DashboardClient.signIn(client, key: "sk_support")
            #expect(try await desk.post(Self.path, form: form.merging(["csrf": desk.csrfToken]) { $1 }).status == .forbidden)
            let refusals: [([String: String], String)] = [
                (["products": "pro.monthly, gold"], "not products of app demo&#39;s catalog: gold"),
                (["metadata": #"{"en": "#], "metadata must be a JSON object of locales"),
                (["priority": "high"], "priority must be a whole number"),
                (["storefronts": "us"], "three-letter App Store codes"),
            ]
            for (change, message) in refusals {
                let refused = try await admin.post(Self.path, form: form.merging(change) { $1 })
                #expect(refused.status == .badRequest && refused.text.contains(message), "\(change): \(refused.status) \(refused.text)")
            }
            #expect(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).isEmpty)

            let added = try await admin.post(Self.path, form: form)
            #expect(added.status == .seeOther && added.headers[.location] == Self.path, "\(added.status) \(added.text)")
            let stored = try #require(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).first)
            #expect(stored.productIDs == ["pro.monthly", "basic.monthly"] && stored.priority == 4 && stored.isDefault)
            #expect(stored.targeting == OfferingTargeting(storefronts: ["DEU", "USA"], minimumAppVersion: AppVersion("2.1"), audiences: [.lapsed]))
            #expect(stored.metadata == ["en": #"{"title":"<b>Sale</b>"}"#] && stored.updatedBy == "admin")

            let edit = try await admin.get("\(Self.path)?edit=sale").text
            #expect(edit.contains("&lt;b&gt;Sale&lt;/b&gt;") && !edit.contains("<b>Sale</b>"))
            #expect(edit.contains(#"<input type="checkbox" name="audienceLapsed" checked>"#))
            let replaced = try await admin.post(Self.path, form: ["csrf": admin.csrfToken, "replacing": "sale", "products": "basic.monthly"])
            #expect(replaced.status == .seeOther)
            let changed = try #require(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).first)
            #expect(changed.id == "sale" && changed.productIDs == ["basic.monthly"] && !changed.isDefault && changed.targeting == OfferingTargeting())

            #expect(try await admin.get("\(Self.path)?edit=missing").status == .notFound)
            #expect(try await desk.post("\(Self.path)/sale/delete", form: ["csrf": desk.csrfToken]).status == .forbidden)
            #expect(try await admin.post("\(Self.path)/sale/delete", form: ["csrf": admin.csrfToken]).status == .seeOther)
            #expect(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).isEmpty)
        }
    }
}
