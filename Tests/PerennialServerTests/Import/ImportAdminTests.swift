import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialServer
import PerennialStorage
import Testing

/// The admin API's imports: a support-scope key uploads the file, the import job runs it, and any
/// admin key reads its progress and report, through the API or on the dashboard; a file that
/// cannot be imported is refused whole and stores nothing.
@Suite struct ImportAdminTests {
    @Test func anOperatorUploadsAFileAndReadsItsReport() async throws {
        let world = try await ImportWorld.played(customers: 2)
        let storage = try await ImportWorld.emptyPerennial()
        let server = try await ServerHarness(
            storage: storage, apps: [try world.apple.productionApp()],
            adminKeys: [AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)], transport: world.apple)
        server.clock.now = world.end
        let rows = world.customers.map { [$0.user.rawValue, $0.originalTransactionID] } + [["ghost", "2000000999999999"]]
        let file = ImportWorld.csv(["app_user_id", "transaction_id"], rows)
        let path = "/admin/v1/apps/\(ServerHarness.appID)/imports"
        let jobs = ImportJobs(
            dependencies: ServerDependencies(apps: world.apps, storage: storage, clock: server.clock), pacedApps: world.apps,
            options: ImportJobs.Options(rates: [:], owner: "test"))
        try await server.test { client in
            #expect(try await client.send(.post, path + "?format=transactions", key: "sk_read_only", body: file).status == .forbidden)
            #expect(try await client.send(.post, path + "?format=csv", key: ServerHarness.adminKey, body: file).status == .badRequest)
            let wrongColumns = try await client.send(.post, path + "?format=revenueCat", key: ServerHarness.adminKey, body: file)
            #expect(wrongColumns.status == .badRequest && wrongColumns.errorCode == "malformedRequest")
            let dashboard = try await DashboardClient.signIn(client, key: "sk_read_only")
            let listPath = "/dashboard/apps/\(ServerHarness.appID)/imports"
            #expect(try await dashboard.get(listPath).text.contains("No import yet"))
            let started = try await client.golden("admin-import-post", .post, path + "?format=transactions", key: ServerHarness.adminKey, body: file)
            #expect(started.status == .accepted)
            let id = try #require(try started.object()["id"] as? String)
            // Started through the API, the import is on the dashboard's list before any instance
            // runs it, and the page reloads itself while it runs.
            let waiting = try await dashboard.get(listPath)
            #expect(waiting.status == .ok)
            #expect(waiting.text.contains("<a href=\"\(listPath)/\(id)\">\(id)</a>") && waiting.text.contains("0/3"), "\(waiting.text)")
            #expect(waiting.text.contains("<td>running</td>") && waiting.text.contains("http-equiv=\"refresh\""), "\(waiting.text)")
            #expect(await jobs.runOnce() == 1)
            let done = try await dashboard.get(listPath)
            #expect(done.text.contains("<td>finished</td>") && done.text.contains("3/3</td><td>1</td>"), "\(done.text)")
            #expect(!done.text.contains("http-equiv=\"refresh\""), "a finished import's page stays still")
            #expect(await jobs.runOnce() == 0, "a finished import is not run again")
            let kept = try #require(try await storage.job(id: id, kind: "import"))
            #expect(kept.state == .done)
            let record = try JSONSerialization.jsonObject(with: Data(kept.record.utf8)) as? [String: Any]
            #expect(record?["file"] as? String == "", "the file, which names app users, is not kept once imported")
            let report = try await client.golden("admin-import-get", .get, "\(path)/\(id)", key: "sk_read_only")
            let json = try report.object()
            #expect(json["state"] as? String == "finished")
            #expect((json["counts"] as? [String: Any])?["imported"] as? Int == 2)
            #expect((json["problems"] as? [[String: Any]])?.map { $0["line"] as? Int } == [4])
            #expect(try await client.send(.get, "\(path)/\(id)?after=4", key: "sk_read_only").object()["problems"] as? [Any] != nil)
            #expect(try await client.send(.get, "\(path)/imp_nope", key: "sk_read_only").status == .notFound)
            // The app's imports, for any admin key: this one, finished, with its counts but not its
            // report, which its own read pages.
            let list = try await client.golden("admin-imports-list", .get, path, key: "sk_read_only")
            let listed = try #require(try list.object()["imports"] as? [[String: Any]])
            #expect(listed.map { $0["id"] as? String } == [id] && listed.first?["state"] as? String == "finished")
            #expect(listed.first?["problems"] == nil && (listed.first?["counts"] as? [String: Any])?["notFound"] as? Int == 1)
            #expect(try await client.send(.get, "/admin/v1/apps/nope/imports", key: "sk_read_only").status == .notFound)
            // The dashboard shows its progress and report to any admin key.
            let page = try await dashboard.get("/dashboard/apps/\(ServerHarness.appID)/imports/\(id)")
            #expect(page.status == .ok)
            #expect(page.text.contains("<progress value=\"3\" max=\"3\">") && page.text.contains("3/3 rows (100%), 1 failed"), "\(page.text)")
            #expect(page.text.contains("<td>4</td><td>notFound</td>"), "\(page.text)")
            // The report pages as the API's does, from the line after `?after=`.
            let rest = try await dashboard.get("/dashboard/apps/\(ServerHarness.appID)/imports/\(id)?after=4")
            #expect(rest.text.contains("No more rows.") && rest.text.contains(">First rows</a>") && !rest.text.contains("<td>4</td>"), "\(rest.text)")
            #expect(try await dashboard.get("/dashboard/apps/\(ServerHarness.appID)/imports/\(id)?after=x").status == .badRequest)
            #expect(try await dashboard.get("/dashboard/apps/\(ServerHarness.appID)/imports/imp_nope").status == .notFound)
            #expect(try await dashboard.get("/dashboard/apps/nope/imports").status == .notFound)
            // The same file again is the same import, as it stands.
            let again = try await client.send(.post, path + "?format=transactions", key: ServerHarness.adminKey, body: file)
            #expect(try again.object()["state"] as? String == "finished")
        }
        #expect(await jobs.runOnce() == 0)
        try await world.expectSameAnswers(storage)
    }

    /// The third format through the API: a CSV of app user ids and base64 receipts (a
    /// directory of receipt files cannot be uploaded; `perennial import` reads one).
    @Test func receiptsAreUploadedAsACSV() async throws {
        let world = try await ImportWorld.played(customers: 2)
        let storage = try await ImportWorld.emptyPerennial()
        let server = try await ServerHarness(storage: storage, apps: [try world.apple.productionApp()], transport: world.apple)
        server.clock.now = world.end
        let receipts = try await world.receipts()
        let file = ImportWorld.csv(["app_user_id", "receipt"], receipts.map { [$0.user.rawValue, $0.base64] } + [["garbled", "not base64!"]])
        let jobs = ImportJobs(
            dependencies: ServerDependencies(apps: world.apps, storage: storage, clock: server.clock), pacedApps: world.apps,
            options: ImportJobs.Options(rates: [:], owner: "test"))
        try await server.test { client in
            let path = "/admin/v1/apps/\(ServerHarness.appID)/imports"
            let started = try await client.send(.post, path + "?format=receipts", key: ServerHarness.adminKey, body: file)
            #expect(started.status == .accepted)
            let status = try started.object()
            #expect(status["format"] as? String == "receipts" && status["totalRows"] as? Int == receipts.count + 1, "\(started.text)")
            let id = try #require(status["id"] as? String)
            #expect(await jobs.runOnce() == 1)
            let report = try await client.send(.get, "\(path)/\(id)", key: ServerHarness.adminKey).object()
            #expect(report["state"] as? String == "finished")
            #expect((report["counts"] as? [String: Any])?["imported"] as? Int == receipts.count)
            #expect((report["problems"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["malformed"])
            let noColumn = try await client.send(.post, path + "?format=receipts", key: ServerHarness.adminKey, body: ImportWorld.csv(["app_user_id"], [["alice"]]))
            #expect(noColumn.status == .badRequest)
        }
        try await world.expectSameAnswers(storage)
    }
}

extension TestResponse {
    /// The body as a JSON object.
    fileprivate func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(text)")
    }
}
