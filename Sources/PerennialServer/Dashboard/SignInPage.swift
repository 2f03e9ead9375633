import Hummingbird

/// The sign-in form: one field, an admin key. The key is posted once and never stored in the
/// browser; the session cookie stands for it afterwards.
enum SignInPage {
    /// The form, with `error` above it after a failed attempt; `next` is where to go afterwards.
    static func page(next: String, error: String? = nil, status: HTTPResponse.Status = .ok) -> DashboardPage {
        let message: HTML = error.map { "<p class=\"error\" role=\"alert\">\($0)</p>" } ?? ""
        return DashboardPage(
            title: "Sign in",
            body: """
                <div class="signin"><h1>Perennial dashboard</h1>\(message)
                <form method="post" action="/dashboard/sign-in">
                <label for="key">Admin key</label>
                <input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
                <input type="hidden" name="next" value="\(next)">
                <button type="submit">Sign in</button></form>
                <p class="muted">Any admin key of this server (<code>adminKey</code> or one of <code>adminKeys</code>) signs in with its scope.</p></div>
                """,
            session: nil, status: status)
    }

    /// Where to go after signing in: `next` when it is a dashboard page of this server, the
    /// overview otherwise (never another site).
    static func destination(_ next: String?) -> String {
        guard let next, next == "/dashboard" || next.hasPrefix("/dashboard/") || next.hasPrefix("/dashboard?"),
            !next.contains("\\"), !next.contains("//")
        else { return "/dashboard" }
        return next
    }
}
