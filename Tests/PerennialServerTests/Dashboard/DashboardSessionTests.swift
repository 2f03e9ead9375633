import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PerennialCore
import PerennialServer
import PerennialSQLite
import Synchronization
import Testing

/// Signing in to the dashboard: an admin key opens a session held in an HttpOnly, SameSite=Strict
/// cookie; a wrong key gets the form again with a clear error; a page asked for without a session
/// goes to sign-in and back; what changes data needs the session's CSRF token, this origin and
/// the key's scope.
@Suite struct DashboardSessionTests {
    static let readOnly = AdminKeyConfiguration(name: "viewer", key: "sk_viewer", scope: .readOnly)

    @Test func aPageWithoutASessionRedirectsToSignInAndBack() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            for path in ["/dashboard", "/dashboard/search?q=alice", "/dashboard/apps/demo/subscribers/alice"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .seeOther, "\(path)")
                let location = try #require(response.headers[.location])
                #expect(location.hasPrefix("/dashboard/sign-in?next="))
                let next = URLComponents(string: location)?.queryItems?.first { $0.name == "next" }?.value
                #expect(next == path)
            }
            let forged = try await client.execute(uri: "/dashboard", method: .get, headers: [.cookie: "perennial_session=forged"])
            #expect(forged.status == .seeOther)
            let signIn = try await client.execute(uri: "/dashboard/sign-in?next=%2Fdashboard%2Fsearch%3Fq%3Dalice", method: .get)
            #expect(signIn.status == .ok)
            #expect(signIn.text.contains(#"name="next" value="/dashboard/search?q=alice""#))
        }
    }

    @Test func aWrongKeyIsRefusedWithAClearErrorAndARightOneOpensASession() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let wrong = try await client.signIn(key: "sk_wrong")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("That is not an admin key of this server."))
            #expect(wrong.headers[.setCookie] == nil)
            let empty = try await client.signIn(key: "")
            #expect(empty.status == .unauthorized)

            let right = try await client.signIn(key: ServerHarness.adminKey, next: "/dashboard/search?q=alice")
            #expect(right.status == .seeOther)
            #expect(right.headers[.location] == "/dashboard/search?q=alice")
            let cookie = try #require(right.headers[.setCookie])
            let attributes = Set(cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
            #expect(attributes.contains("httponly"))
            #expect(attributes.contains("samesite=strict"))
            #expect(attributes.contains("path=/dashboard"))
            let session = try #require(DashboardClient.sessionCookie(from: right))
            // 256 random bits, base64url.
            #expect(session.count == 43)

            let overview = try await client.execute(uri: "/dashboard", method: .get, headers: [.cookie: "perennial_session=\(session)"])
            #expect(overview.status == .ok)
            #expect(overview.text.contains("Sign out admin"))

            let offSite = try await client.signIn(key: ServerHarness.adminKey, next: "//evil.example/x")
            #expect(offSite.headers[.location] == "/dashboard")
        }
    }

    @Test func signingOutNeedsTheCSRFTokenAndEndsTheSession() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let noToken = try await dashboard.post("/dashboard/sign-out", form: [:])
            #expect(noToken.status == .forbidden)
            #expect(noToken.text.contains("reload the page"))
            let wrongToken = try await dashboard.post("/dashboard/sign-out", form: ["csrf": "not-the-token"])
            #expect(wrongToken.status == .forbidden)
            let otherSite = try await dashboard.post(
                "/dashboard/sign-out", form: ["csrf": dashboard.csrfToken], origin: "https://evil.example")
            #expect(otherSite.status == .forbidden)
            #expect(try await dashboard.get("/dashboard").status == .ok)

            let out = try await dashboard.post("/dashboard/sign-out", form: ["csrf": dashboard.csrfToken])
            #expect(out.status == .seeOther)
            #expect(out.headers[.location] == "/dashboard/sign-in")
            #expect(try await dashboard.get("/dashboard").status == .seeOther)
        }
    }

    /// A form counts as the dashboard's own only from this server's origin — scheme, host and
    /// port, as the browser saw them through the TLS proxy — not from any origin on the same host
    /// (the probe posted from http://127.0.0.1:9999 and https://127.0.0.1:<port>, with the token).
    @Test func aFormIsTakenOnlyFromTheServersOwnOrigin() async throws {
        let server = try await ServerHarness()
        let proxied: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https", HTTPField.Name("X-Forwarded-Host")!: "perennial.example.com"]
        let cases: [(origin: String, headers: HTTPFields, accepted: Bool)] = [
            ("http://localhost:9999", [:], false),
            ("https://localhost", [:], false),
            ("http://evil.localhost", [:], false),
            ("null", [:], false),
            ("http://localhost", [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], false),
            ("http://perennial.example.com", proxied, false),
            ("https://perennial.example.com:8443", proxied, false),
            ("https://perennial.example.com", proxied, true),
            ("HTTP://LOCALHOST:80", [:], true),
        ]
        try await server.test { client in
            for (origin, headers, accepted) in cases {
                let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
                let out = try await dashboard.post("/dashboard/sign-out", form: ["csrf": dashboard.csrfToken], origin: origin, headers: headers)
                #expect((out.status == .seeOther) == accepted, "\(origin) \(headers): \(out.status)")
                #expect((try await dashboard.get("/dashboard").status == .ok) != accepted, "\(origin)")
            }
        }
    }

    /// A sign-in posted from another site (a forced sign-in into the attacker's session) is refused.
    @Test func aSignInFromAnotherSiteIsRefused() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            for headers: HTTPFields in [[.origin: "https://evil.example"], [.origin: "http://localhost:1"], [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]] {
                let forced = try await client.signIn(key: ServerHarness.adminKey, headers: headers)
                #expect(forced.status == .forbidden, "\(headers)")
                #expect(forced.headers[.setCookie] == nil)
            }
            let own = try await client.signIn(key: ServerHarness.adminKey, headers: [.origin: "http://localhost", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(own.status == .seeOther)
        }
    }

    /// Sessions live in the database: a browser signed in through one instance is signed in on
    /// another sharing it (a restart is such another instance), signing out anywhere signs out
    /// everywhere, and a key given a new value, or removed, takes its sessions with it.
    @Test func aSessionIsEveryInstancesAndEndsWithItsKey() async throws {
        let storage = try ServerHarness.temporarySQLite()
        let one = try await ServerHarness(storage: storage, adminKeys: [Self.readOnly])
        let other = try await ServerHarness(storage: storage, adminKeys: [Self.readOnly])
        let rotated = try await ServerHarness(
            storage: storage, adminKeys: [AdminKeyConfiguration(name: "viewer", key: "sk_viewer_rotated", scope: .readOnly)])
        let removed = try await ServerHarness(storage: storage)
        let cookies = Mutex<[String: (session: String, csrf: String)]>([:])
        try await one.test { client in
            for key in ["sk_viewer", ServerHarness.adminKey] {
                let signed = try await DashboardClient.signIn(client, key: key)
                cookies.withLock { $0[key] = (signed.session, signed.csrfToken) }
            }
        }
        let signedIn = try #require(cookies.withLock { $0["sk_viewer"] }), full = try #require(cookies.withLock { $0[ServerHarness.adminKey] })
        try await other.test { client async throws in
            let elsewhere = DashboardClient(client: client, session: signedIn.session, csrfToken: signedIn.csrf)
            #expect(try await elsewhere.get("/dashboard").status == .ok)
            let fullElsewhere = DashboardClient(client: client, session: full.session, csrfToken: full.csrf)
            #expect(try await fullElsewhere.post("/dashboard/sign-out", form: ["csrf": full.csrf]).status == .seeOther)
        }
        try await one.test { client async throws in
            #expect(try await DashboardClient(client: client, session: full.session, csrfToken: full.csrf).get("/dashboard").status == .seeOther)
            #expect(try await DashboardClient(client: client, session: signedIn.session, csrfToken: "").get("/dashboard").status == .ok)
        }
        for server in [rotated, removed] {
            try await server.test { client async throws in
                #expect(try await DashboardClient(client: client, session: signedIn.session, csrfToken: "").get("/dashboard").status == .seeOther)
            }
        }
    }

    @Test func aRefreshFromAppleNeedsTheTokenAndTheSupportScope() async throws {
        let server = try await ServerHarness(adminKeys: [Self.readOnly])
        try await server.test { client in
            let path = "/dashboard/apps/demo/subscribers/alice/refresh"
            let viewer = try await DashboardClient.signIn(client, key: "sk_viewer")
            #expect(try await viewer.post(path, form: [:]).status == .forbidden)
            let refused = try await viewer.post(path, form: ["csrf": viewer.csrfToken])
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("viewer has the readOnly scope; this route needs support"))
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let unconfigured = try await admin.post(path, form: ["csrf": admin.csrfToken])
            #expect(unconfigured.status == .notImplemented)
        }
    }

    @Test func anOrderLookupNeedsTheSupportScope() async throws {
        let server = try await ServerHarness(adminKeys: [Self.readOnly])
        try await server.test { client in
            let viewer = try await DashboardClient.signIn(client, key: "sk_viewer")
            let refused = try await viewer.post("/dashboard/apps/demo/orders", form: ["csrf": viewer.csrfToken, "orderId": "MK5TTTVWJH"])
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("viewer has the readOnly scope"))
            // The full key passes the scope; the harness's app has no Server API key to ask Apple with.
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let unconfigured = try await admin.post("/dashboard/apps/demo/orders", form: ["csrf": admin.csrfToken, "orderId": "MK5TTTVWJH"])
            #expect(unconfigured.status == .notImplemented)
            #expect(unconfigured.text.contains("no App Store Server API key"))
        }
    }

    @Test func withoutAnAdminKeyTheDashboardSaysItIsDisabled() async throws {
        let storage = try ServerHarness.temporarySQLite()
        try await storage.migrate()
        let router = buildRouter(dependencies: ServerDependencies(apps: try AppRegistry([]), storage: storage))
        try await Application(router: router).test(.router) { client in
            let response = try await client.signIn(key: "anything")
            #expect(response.status == .serviceUnavailable)
            #expect(response.text.contains("no admin key"))
        }
    }

    /// A session lasts eight hours of the server's wall clock, the one injected into its
    /// dependencies (a simulated clock under test), not the machine's.
    @Test func aSessionEndsByTheInjectedWallClock() async throws {
        let wallClock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let server = try await ServerHarness(wallClock: wallClock)
        try await server.test { client in
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            #expect(try await admin.get("/dashboard").status == .ok)
            _ = wallClock.advance(by: 8 * 3600 - 60)
            #expect(try await admin.get("/dashboard").status == .ok)
            _ = wallClock.advance(by: 120)
            let expired = try await admin.get("/dashboard")
            #expect(expired.status == .seeOther && expired.headers[.location]?.hasPrefix("/dashboard/sign-in") == true)
        }
    }
}
