import Hummingbird
import NIOCore

/// The frame of every dashboard page — head, style sheet, navigation — and how a page leaves the
/// server: as HTML whose Content-Security-Policy lets it load nothing from anywhere, run no
/// script and be framed by no one, so even a payload that escaped escaping could do nothing.
struct DashboardPage: Sendable {
    var title: String
    var body: HTML
    /// The signed-in session: nil on the sign-in page, which has no navigation.
    var session: DashboardSessions.Session?
    var status: HTTPResponse.Status = .ok
    /// Seconds after which the browser loads the page again: a page of work under way shows its
    /// progress live, with no script (the Content-Security-Policy runs none).
    var refreshSeconds: Int?

    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A page that only says something: a refusal, an empty search.
    static func notice(_ title: String, _ message: String, session: DashboardSessions.Session?, status: HTTPResponse.Status) -> Self {
        DashboardPage(
            title: title, body: "<h1>\(title)</h1><p class=\"\(status.code >= 400 ? "error" : "notice")\">\(message)</p>", session: session,
            status: status)
    }

    var response: Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.init("Referrer-Policy")!] = "same-origin"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: document.description)))
    }

    var document: HTML {
        let navigation: HTML =
            if let session {
                """
                <nav><a class="brand" href="/dashboard">Perennial</a><a href="/dashboard">Overview</a>\
                <form class="search" method="get" action="/dashboard/search"><input type="search" name="q" \
                placeholder="app user id, transaction id or order id" aria-label="Search subscribers"></form>\
                <form method="post" action="/dashboard/sign-out"><input type="hidden" name="csrf" value="\(session.csrfToken)">\
                <button class="link" title="signed in with the admin key \(session.keyName) (\(session.scope.rawValue))">Sign out \(session.keyName)</button></form></nav>
                """
            } else {
                ""
            }
        let refresh: HTML = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">\(refresh)
            <title>\(title) · Perennial</title>
            <style>\(HTML(stringLiteral: Self.styleSheet))</style></head>
            <body>\(navigation)<main>\(body)</main></body></html>
            """
    }

    /// One style sheet for every page: readable on a phone (one column under 40em, tables scroll
    /// sideways), light and dark.
    static let styleSheet = """
        :root{--fg:#1b1f24;--muted:#5b6570;--bg:#fff;--panel:#f4f6f8;--line:#d8dee4;--accent:#1f6feb;--good:#1a7f37;--bad:#cf222e;
        font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa5b1;--bg:#0d1117;--panel:#161b22;--line:#30363d;--accent:#58a6ff;--good:#3fb950;--bad:#f85149}}
        body{margin:0}main{max-width:72em;margin:0 auto;padding:1em}
        nav{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;padding:.6em 1em;border-bottom:1px solid var(--line);background:var(--panel)}
        nav a{color:var(--fg);text-decoration:none}nav .brand{font-weight:700}nav .search{flex:1;min-width:12em}
        nav input{width:100%;box-sizing:border-box}
        a{color:var(--accent)}h1{font-size:1.4em;margin:.4em 0}h2{font-size:1.1em;margin:1.4em 0 .5em}
        input,select,button,textarea{font:inherit;padding:.4em .6em;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
        button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
        button.link{background:none;border:none;color:var(--accent);padding:0}
        form{margin:0}.row{display:flex;flex-wrap:wrap;gap:.5em;align-items:center}
        .tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(10.5em,1fr));gap:.6em}
        .tile{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.6em .8em}
        .tile .label{color:var(--muted);font-size:.85em}.tile .value{font-size:1.5em;font-weight:600}
        .up{color:var(--good)}.down{color:var(--bad)}.muted{color:var(--muted)}
        .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(20em,1fr));gap:.8em}
        figure{margin:0;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.5em}
        figcaption{font-weight:600;margin-bottom:.3em}svg{width:100%;height:auto;display:block}
        .legend span{margin-right:1em;font-size:.85em}.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px}
        .scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9em}
        th,td{border-bottom:1px solid var(--line);padding:.35em .5em;text-align:left;vertical-align:top}
        td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        .heat td.cell{text-align:right}
        .error{border:1px solid var(--bad);color:var(--bad);border-radius:6px;padding:.6em .8em;margin:.6em 0}
        .notice{border:1px solid var(--line);background:var(--panel);border-radius:6px;padding:.6em .8em;margin:.6em 0}
        .signin{max-width:24em;margin:12vh auto}.signin input{width:100%;box-sizing:border-box;margin:.4em 0 .8em}
        .timeline{list-style:none;padding:0}.timeline>li{border-left:3px solid var(--accent);padding:.2em 0 .8em .8em;margin-left:.3em}
        .evidence{display:grid;grid-template-columns:repeat(auto-fit,minmax(18em,1fr));gap:.6em;margin-top:.4em}
        pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5em;overflow:auto;max-height:28em;
        white-space:pre-wrap;word-break:break-all;font-size:.8em;margin:.2em 0}
        .badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:.85em;background:var(--panel);border:1px solid var(--line)}
        .badge.on{border-color:var(--good);color:var(--good)}
        @media (max-width:40em){main{padding:.6em}.tile .value{font-size:1.25em}}
        """
}
