@testable import PerennialServer
import Testing

/// Escaping is the default of the dashboard's HTML: what is interpolated is escaped unless it is
/// markup the dashboard wrote.
@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let user = #"<img src=x onerror="alert(1)">&'"#
        let inner: HTML = "<b>\(user)</b>"
        let page: HTML = "<p title=\"\(user)\">\(inner)</p>"
        #expect(
            page.description
                == "<p title=\"&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;\"><b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</b></p>")
        #expect(HTML.join(["<i>", "\(user)"], separator: "<br>").description == "<i><br>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;")
    }

    @Test func signInReturnsOnlyToDashboardPages() {
        #expect(SignInPage.destination("/dashboard/apps/demo/subscribers/a%2Fb") == "/dashboard/apps/demo/subscribers/a%2Fb")
        #expect(SignInPage.destination("/dashboard?range=90d") == "/dashboard?range=90d")
        for outside in ["//evil.example", "https://evil.example/dashboard", "/dashboardx", "/dashboard/..//evil", "/dashboard\\@evil", nil] {
            #expect(SignInPage.destination(outside) == "/dashboard", "\(outside ?? "nil")")
        }
    }

    @Test func subscriberLinksKeepTheUserIDOneSegment() {
        #expect(DashboardRoutes.subscriberPath(app: "demo", user: "a/b?c#d%e f") == "/dashboard/apps/demo/subscribers/a%2Fb%3Fc%23d%25e%20f")
    }

    @Test func chartAxesEndOnRoundNumbers() {
        #expect(SVGChart.niceCeiling(0) == 4)
        #expect(SVGChart.niceCeiling(7) == 8)
        #expect(SVGChart.niceCeiling(10) == 12)
        #expect(SVGChart.niceCeiling(101) == 120)
        #expect(SVGChart.niceCeiling(9_990) == 12_000)
        #expect(DashboardFormat.money(1_234_565, currency: "USD") == "1\u{2009}234.57 USD")
        #expect(DashboardFormat.money(-9_990, currency: "EUR") == "-9.99 EUR")
        #expect(DashboardFormat.percent(0.1234) == "12.3%")
        #expect(DashboardFormat.percent(nil) == "–")
    }
}
