import PerennialWire
import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// The dashboard `perennial serve` serves at `/dashboard`: server-rendered HTML pages for
/// operators, signed in with an admin key. It reads through the same code as the admin API (the
/// subscriber answer, the timeline, purchase and order lookups, the metrics) so a page and the
/// API never disagree; what it changes (an order looked up at Apple, a subscriber refreshed from
/// Apple, a purchase's app account token set at Apple: Apple's answer is applied) needs the key's scope, as on the API, and the session's CSRF
/// token.
struct DashboardRoutes: Sendable {
    let dependencies: ServerDependencies
    let sessions: DashboardSessions
    /// Sessions expire in real time, whatever clock the server judges subscriptions by (a
    /// simulator's runs fast).
    let wallClock: any TimeSource


    func add(to router: Router<PerennialRequestContext>) {
        let open = router.group("dashboard")
        open.get("sign-in") { request, _ in
            SignInPage.page(next: SignInPage.destination(request.uri.queryParameters.get("next"))).response
        }
        open.post("sign-in") { request, context in
            try await signIn(request, context: context)
        }
        let pages = router.group("dashboard").add(
            middleware: DashboardAuthentication(sessions: sessions, clock: wallClock, maxFormBytes: dependencies.limits.maxFormBytes))
        let support = pages.group().add(middleware: DashboardScope(required: .support))
        let full = pages.group().add(middleware: DashboardScope(required: .full))
        pages.get { request, context in
            try await page(context) { session in try await overview(request, session: session).response }
        }
        pages.get("search") { request, context in
            try await page(context) { session in try await search(try Self.queryFields(of: request)["q"] ?? "", session: session) }
        }
        pages.get("apps/:appId/subscribers/:appUserId") { _, context in
            try await page(context) { session in try await subscriber(context, session: session).response }
        }
        pages.get("apps/:appId/imports") { _, context in
            try await page(context) { session in try await imports(context, session: session).response }
        }
        pages.get("apps/:appId/imports/:importId") { request, context in
            try await page(context) { session in try await importProgress(request, context: context, session: session).response }
        }
        pages.get("apps/:appId/offerings") { request, context in
            try await page(context) { session in try await offerings(request, context: context, session: session).response }
        }
        full.post("apps/:appId/offerings") { request, context in
            try await page(context) { session in try await saveOffering(request, context: context, session: session) }
        }
        full.post("apps/:appId/offerings/:offeringId/delete") { request, context in
            try await page(context) { session in try await removeOffering(request, context: context, session: session) }
        }
        pages.get("apps/:appId/retention-rules") { request, context in
            try await page(context) { session in try await retentionRules(request, context: context, session: session).response }
        }
        full.post("apps/:appId/retention-rules") { request, context in
            try await page(context) { session in try await saveRetentionRule(request, context: context, session: session) }
        }
        full.post("apps/:appId/retention-rules/:ruleId/delete") { request, context in
            try await page(context) { session in try await removeRetentionRule(request, context: context, session: session) }
        }
        pages.get("apps/:appId/experiments") { _, context in
            try await page(context) { session in try await experiments(context, session: session).response }
        }
        pages.get("apps/:appId/experiments/:experimentId") { _, context in
            try await page(context) { session in try await experimentResults(context, session: session).response }
        }
        full.post("apps/:appId/experiments") { request, context in
            try await page(context) { session in try await addExperiment(request, context: context, session: session) }
        }
        full.post("apps/:appId/experiments/:experimentId/:action") { request, context in
            try await page(context) { session in try await changeExperiment(request, context: context, session: session) }
        }
        support.post("apps/:appId/orders") { request, context in
            try await page(context) { session in try await lookUpOrder(request, context: context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/refresh") { request, context in
            try await page(context) { session in try await refresh(request, context: context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/purchases/:originalTransactionId/app-account-token") { request, context in
            try await page(context) { session in try await setAppAccountToken(request, context: context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/purchases/:originalTransactionId/app-transaction") { request, context in
            try await page(context) { session in try await readAppTransaction(request, context: context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/grants") { request, context in
            try await page(context) { session in try await grant(request, context: context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/grants/:grantId/revoke") { request, context in
            try await page(context) { session in try await revokeGrant(request, context: context, session: session) }
        }
        support.get("apps/:appId/subscribers/:appUserId/personal-data") { _, context in
            try await page(context) { session in try await exportPersonalData(context, session: session) }
        }
        support.post("apps/:appId/subscribers/:appUserId/personal-data/erase") { request, context in
            try await page(context) { session in try await erasePersonalData(request, context: context, session: session) }
        }
        pages.post("sign-out") { request, context in
            try await page(context) { session in
                try await sessions.close(id: session.id)
                var response = Response.redirect(to: "/dashboard/sign-in", type: .normal)
                response.setCookie(Self.cookie(value: "", maxAge: 0, request: request))
                return response
            }
        }
    }

    // MARK: Signing in

    private struct SignInForm: Decodable {
        var key: String?
        var next: String?
    }

    private func signIn(_ request: Request, context: PerennialRequestContext) async throws -> Response {
        // A sign-in posted from another site would sign the browser in as the attacker's key.
        guard DashboardAuthentication.isSameOrigin(request) else {
            dependencies.logger.notice("dashboard sign-in refused: posted from another origin")
            return SignInPage.page(next: "/dashboard", error: "This form was posted from another site.", status: .forbidden).response
        }
        let guardian = CredentialGuard(dependencies: dependencies)
        let address = context.callerAddress(of: request, trustingForwardedFor: dependencies.limits.trustForwardedFor)
        do throws(AuthError) {
            try dependencies.throttle.checkBackoff(address: address)
        } catch {
            var response = SignInPage.page(next: "/dashboard", error: "Too many failed sign-ins from this address: \(error.description).", status: .tooManyRequests).response
            response.headers[.retryAfter] = error.retryAfter.map(String.init)
            return response
        }
        let fields = try Self.decodeForm(SignInForm.self, from: try await formBody(of: request))
        let next = SignInPage.destination(fields.next)
        guard !dependencies.adminKeys.isEmpty else {
            return SignInPage.page(
                next: next, error: "The dashboard is disabled: this server has no admin key (set adminKey or adminKeys).",
                status: .serviceUnavailable
            ).response
        }
        guard let presented = fields.key, !presented.isEmpty, let key = dependencies.adminKeys.key(presented: Array(presented.utf8)) else {
            guardian.fail(address: address, path: request.uri.path, reason: "dashboard sign-in: not an admin key")
            return SignInPage.page(next: next, error: "That is not an admin key of this server.", status: .unauthorized).response
        }
        let session = try await sessions.open(for: key, now: wallClock.now)
        dependencies.logger.info("dashboard sign-in", metadata: ["admin": "\(key.name)"])
        var response = Response.redirect(to: next, type: .normal)
        response.setCookie(Self.cookie(value: session.id, maxAge: Int(DashboardSessions.lifetime), request: request))
        return response
    }

    /// The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's
    /// link or form carries it), scoped to the dashboard, and Secure when a TLS proxy in front
    /// says the browser came over HTTPS.
    private static func cookie(value: String, maxAge: Int, request: Request) -> Cookie {
        Cookie(
            name: DashboardAuthentication.cookieName, value: value, maxAge: maxAge, path: "/dashboard",
            secure: request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https", httpOnly: true, sameSite: .strict)
    }

    // MARK: Overview

    private func overview(_ request: Request, session: DashboardSessions.Session) async throws -> DashboardPage {
        let apps = dependencies.apps.apps
        let parameters = try Self.queryFields(of: request)
        guard let app = parameters["app"].map({ dependencies.apps.app(id: $0) }) ?? apps.first else {
            throw APIError.notFound(apps.isEmpty ? "no app is configured" : "no app \(parameters["app"] ?? "") is configured")
        }
        let range = parameters["range"].flatMap(OverviewPage.Range.init(rawValue:)) ?? .days30
        let breakdown = parameters["breakdown"].flatMap(AnalyticsBreakdown.init(rawValue:)) ?? .none
        let environment = try AnalyticsRoutes.environment(parameters["environment"], default: app.analyticsEnvironment)
        let today = dependencies.clock.now
        let query = AnalyticsQuery(
            appID: app.id, environment: environment, from: today.addingTimeInterval(-Double(range.days - 1) * 86_400), through: today,
            granularity: range.granularity, breakdown: breakdown,
            filter: AnalyticsFilter(lists: parameters["product"], storefronts: parameters["storefront"], offerTypes: parameters["offerType"]))
        let report = try await dependencies.analytics.report(query)
        let refunds = try await dependencies.storage.consumptionRequests(appBundleID: app.bundleID, limit: 20).filter { $0.environment == environment }
        return DashboardPage(
            title: "Overview",
            body: OverviewPage(appIDs: apps.map(\.id), productIDs: app.catalog.products.map(\.id), report: report, range: range, refundRequests: refunds)
                .body,
            session: session)
    }

    // MARK: Search and subscribers

    /// A search box's text: an original or any transaction id, then an app user id, then (when
    /// nothing matched and an app can ask Apple) an order id to look up at Apple — a POST, since
    /// Apple's answer is applied.
    private func search(_ text: String, session: DashboardSessions.Session) async throws -> Response {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return Response.redirect(to: "/dashboard", type: .normal) }
        if ActionTargets.isTransactionID(query), let found = try await dependencies.storage.purchase(ofTransaction: query) {
            if let owner = found.owner, let app = dependencies.apps.apps.first(where: { $0.bundleID == found.appBundleID }) {
                return Response.redirect(to: Self.subscriberPath(app: app.id, user: owner.rawValue), type: .normal)
            }
            return DashboardPage.notice(
                "Purchase \(found.originalTransactionID)", "Purchase \(found.originalTransactionID) is stored, but no user of a configured app owns it.",
                session: session, status: .ok
            ).response
        }
        if PathUser.isPossible(query) {
            var apps: [AppContext] = []
            for app in dependencies.apps.apps where try await !dependencies.storage.timeline(of: AppUserID(query), appBundleID: app.bundleID).isEmpty {
                apps.append(app)
            }
            if apps.count == 1, let only = apps.first {
                return Response.redirect(to: Self.subscriberPath(app: only.id, user: query), type: .normal)
            }
            if !apps.isEmpty {
                let links = HTML.join(apps.map { "<li><a href=\"\(Self.subscriberPath(app: $0.id, user: query))\">\(query) in \($0.id)</a></li>" })
                return DashboardPage(title: "Search", body: "<h1>\(query)</h1><ul>\(links)</ul>", session: session).response
            }
        }
        return SearchPage.notFound(query, orderApps: dependencies.apps.apps.filter { $0.serverAPI != nil }.map(\.id), session: session).response
    }

    private func subscriber(_ context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let user = try PathUser.from(context)
        let now = dependencies.clock.now
        let answer = try await dependencies.pipeline(for: app).answer(for: user, now: now)
        let timeline = try await TimelineResponse.read(of: user, appBundleID: app.bundleID, from: dependencies.storage)
        let view = try await dependencies.pipeline(for: app).view(of: user, now: now)
        let retention = try await dependencies.retentionChoice(of: user, app: app, view: view)
        let page = await SubscriberPage.make(appID: app.id, answer: answer, timeline: timeline, retention: retention)
        let controls = SubscriberPage.Controls(
            csrfToken: session.csrfToken, canSupport: session.scope >= .support, canAskApple: app.serverAPI != nil,
            entitlementIDs: app.engine.catalog.entitlements.map(\.id))
        return DashboardPage(title: user.rawValue, body: page.body(controls: controls), session: session)
    }

    /// The app's latest imports, however they were started, each with its progress.
    private func imports(_ context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let jobs = try await dependencies.storage.imports(appBundleID: app.bundleID, limit: ImportsPage.shown)
        return ImportsPage.make(jobs, appID: app.id, session: session)
    }

    /// An import's progress and a page of its report, from the line after `?after=`.
    private func importProgress(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let id = context.parameters.get("importId") ?? ""
        guard let job = try await dependencies.storage.importJob(id: id), job.appBundleID == app.bundleID else {
            throw APIError.notFound("app \(app.id) has no import \(id)")
        }
        let after = try Self.queryFields(of: request)["after"].map { text throws(APIError) in
            guard let line = Int(text), line >= 0 else { throw APIError.malformed("after must be a line number (got '\(text)')") }
            return line
        }
        let problems = try await dependencies.storage.importProblems(of: id, after: after ?? 0, limit: ImportPage.reportLines)
        return ImportPage.make(job, appID: app.id, problems: problems, after: after ?? 0, session: session)
    }

    /// The app's offerings and the form adding one, or replacing the one `?edit=` names.
    private func offerings(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID).map(Offering.init)
        let editing = try Self.queryFields(of: request)["edit"].map { id throws(OfferingError) in
            guard let offering = offerings.first(where: { $0.id == id }) else { throw .noSuchOffering(id, app: app.id) }
            return offering
        }
        return OfferingsPage.make(offerings, editing: editing, appID: app.id, session: session)
    }

    /// Adds the form's offering, or replaces the one it edits, as the admin API does.
    private func saveOffering(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: OfferingsPage.Form.self)
        let app = try pathApp(context)
        let body = try fields.request()
        if let replacing = fields.replacing {
            _ = try await dependencies.perform(ReplaceOffering(offeringID: replacing, request: body, app: app), by: session.actingKey)
        } else {
            _ = try await dependencies.perform(AddOffering(request: body, app: app), by: session.actingKey)
        }
        return Response.redirect(to: Self.offeringsPath(app: app.id), type: .normal)
    }

    private func removeOffering(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        _ = try await form(request, as: NoFields.self)
        let app = try pathApp(context)
        _ = try await dependencies.perform(RemoveOffering(offeringID: context.parameters.get("offeringId") ?? "", app: app), by: session.actingKey)
        return Response.redirect(to: Self.offeringsPath(app: app.id), type: .normal)
    }

    /// The app's retention rules and the form adding one, or replacing the one `?edit=` names.
    private func retentionRules(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let rules = try await dependencies.storage.retentionRules(appBundleID: app.bundleID)
        let editing = try Self.queryFields(of: request)["edit"].map { id throws(RetentionRuleError) in
            guard let rule = rules.first(where: { $0.id == id }) else { throw .noSuchRule(id, app: app.id) }
            return rule
        }
        let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID).map(\.id)
        return RetentionRulesPage.make(rules, offeringIDs: offerings, editing: editing, appID: app.id, session: session)
    }

    /// Adds the form's rule, or replaces the one it edits, as the admin API does.
    private func saveRetentionRule(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: RetentionRulesPage.Form.self)
        let app = try pathApp(context)
        let body = try fields.request()
        if let replacing = fields.replacing {
            _ = try await dependencies.perform(ReplaceRetentionRule(ruleID: replacing, request: body, app: app), by: session.actingKey)
        } else {
            _ = try await dependencies.perform(AddRetentionRule(request: body, app: app), by: session.actingKey)
        }
        return Response.redirect(to: Self.retentionRulesPath(app: app.id), type: .normal)
    }

    private func removeRetentionRule(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        _ = try await form(request, as: NoFields.self)
        let app = try pathApp(context)
        _ = try await dependencies.perform(RemoveRetentionRule(ruleID: context.parameters.get("ruleId") ?? "", app: app), by: session.actingKey)
        return Response.redirect(to: Self.retentionRulesPath(app: app.id), type: .normal)
    }

    private func experiments(_ context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let experiments = try await dependencies.storage.experiments(appBundleID: app.bundleID).map(Experiment.init)
        return ExperimentsPage.make(experiments, appID: app.id, session: session)
    }

    private func experimentResults(_ context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> DashboardPage {
        let app = try pathApp(context)
        let experiment = try await ExperimentActions.stored(context.parameters.get("experimentId") ?? "", app: app, storage: dependencies.storage)
        let results = try await ExperimentResultsReader(dependencies: dependencies).results(of: experiment, app: app)
        return ExperimentsPage.results(results, appID: app.id, session: session)
    }

    /// Adds the form's draft, as the admin API does.
    private func addExperiment(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: ExperimentsPage.Form.self)
        let app = try pathApp(context)
        _ = try await dependencies.perform(AddExperiment(request: try fields.request(), app: app), by: session.actingKey)
        return Response.redirect(to: Self.experimentsPath(app: app.id), type: .normal)
    }

    private struct ExperimentActionForm: Decodable {
        var winner: String?
    }

    /// Starts, stops or rolls out an experiment, as the admin API does.
    private func changeExperiment(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: ExperimentActionForm.self)
        let app = try pathApp(context)
        let id = context.parameters.get("experimentId") ?? ""
        switch context.parameters.get("action") {
        case "start": _ = try await dependencies.perform(StartExperiment(experimentID: id, app: app), by: session.actingKey)
        case "stop": _ = try await dependencies.perform(StopExperiment(experimentID: id, winner: nil, app: app), by: session.actingKey)
        case "rollout":
            guard let winner = fields.winner else { throw APIError.malformed("a roll-out names its winner") }
            _ = try await dependencies.perform(StopExperiment(experimentID: id, winner: winner, app: app), by: session.actingKey)
        default: throw APIError(status: .notFound, code: "notFound", message: "no such experiment action")
        }
        return Response.redirect(to: "\(Self.experimentsPath(app: app.id))/\(Self.segment(id))", type: .normal)
    }

    private struct GrantForm: Decodable {
        var entitlementId: String?
        var duration: String?
        var reason: String?
    }

    /// Gives the subscriber an entitlement for a while, as the admin API does.
    private func grant(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        try await subscriberAction(request, context: context, session: session, form: GrantForm.self) { fields, app, user in
            let reason = fields.reason?.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try await dependencies.perform(
                GrantEntitlement(
                    request: GrantRequest(entitlementId: fields.entitlementId ?? "", duration: fields.duration ?? "", reason: reason?.isEmpty == false ? reason : nil),
                    user: user, app: app),
                by: session.actingKey)
        }
    }

    /// Ends one of the subscriber's grants now.
    private func revokeGrant(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        try await subscriberAction(request, context: context, session: session, form: NoFields.self) { _, app, user in
            _ = try await dependencies.perform(
                RevokeGrant(grantID: context.parameters.get("grantId") ?? "", user: user, app: app, reason: "from the dashboard"), by: session.actingKey)
        }
    }

    /// Asks Apple about the subscriber's subscriptions now.
    private func refresh(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        try await subscriberAction(request, context: context, session: session, form: NoFields.self) { _, app, user in
            _ = try await dependencies.perform(RefreshSubscriber(user: user, reason: "from the dashboard", app: app), by: session.actingKey)
        }
    }

    /// Binds one of the subscriber's purchases at Apple to the subscriber's app account token, as
    /// the admin API does; a purchase of another user of the app is not this page's to change.
    private func setAppAccountToken(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        try await subscriberAction(request, context: context, session: session, form: NoFields.self) { _, app, user in
            _ = try await dependencies.perform(
                SetAppAccountToken(
                    originalTransactionID: context.parameters.get("originalTransactionId"), expectedOwner: user, reason: "from the dashboard", app: app),
                by: session.actingKey)
        }
    }

    /// Reads the subscriber's original app purchase from Apple by one of the subscriber's purchases,
    /// as the admin API does.
    private func readAppTransaction(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        try await subscriberAction(request, context: context, session: session, form: NoFields.self) { _, app, user in
            _ = try await dependencies.perform(
                ReadAppTransaction(
                    originalTransactionID: context.parameters.get("originalTransactionId"), expectedOwner: user, reason: "from the dashboard", app: app),
                by: session.actingKey)
        }
    }

    /// The subscriber's personal-data export as a JSON download (support scope: it is everything
    /// stored about a person).
    private func exportPersonalData(_ context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let (app, user) = (try pathApp(context), try PathUser.from(context))
        guard let export = try await PersonalDataRequests(pipeline: dependencies.pipeline(for: app)).export(user, now: dependencies.clock.now) else {
            throw PrivacyRoutes.unknown(user)
        }
        var response = JSONResponse.make(export)
        response.headers[.contentDisposition] = "attachment; filename=\"personal-data-\(app.id).json\""
        return response
    }

    private struct ErasureForm: Decodable {
        var confirm: String?
        var reason: String?
    }

    /// Erases the subscriber's personal data once the operator typed the user id again.
    private func erasePersonalData(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: ErasureForm.self)
        let (app, user) = (try pathApp(context), try PathUser.from(context))
        guard fields.confirm == user.rawValue else {
            return DashboardPage.notice(
                "Nothing erased", "The user id typed to confirm is not this user's; nothing was erased.", session: session, status: .unprocessableContent
            ).response
        }
        let reason = fields.reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard
            let erased = try await PersonalDataRequests(pipeline: dependencies.pipeline(for: app)).erase(
                user, by: session.keyName, reason: reason?.isEmpty == false ? reason : nil, now: dependencies.clock.now)
        else { throw PrivacyRoutes.unknown(user) }
        return DashboardPage.notice(
            "Personal data erased",
            "\(erased.releasedPurchases.count) purchases unbound, \(erased.deletedRows) rows deleted, \(erased.anonymizedEvidence) pieces of evidence kept without the user, \(erased.rewrittenMentions) mentions by other users rewritten. The timeline entry names your key, not the user.",
            session: session, status: .ok
        ).response
    }

    /// Runs a support action on the path's subscriber from a posted form (its CSRF token and the
    /// session's scope checked by the group's middleware), then shows the subscriber's page again.
    private func subscriberAction<Form: Decodable>(
        _ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session, form type: Form.Type,
        _ action: (Form, AppContext, AppUserID) async throws -> Void
    ) async throws -> Response {
        let fields = try await form(request, as: type)
        let app = try pathApp(context)
        let user = try PathUser.from(context)
        try await action(fields, app, user)
        return Response.redirect(to: Self.subscriberPath(app: app.id, user: user.rawValue), type: .normal)
    }

    /// The path's app.
    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
            throw .notFound("no app \(context.parameters.get("appId") ?? "") is configured")
        }
        return app
    }

    private struct OrderForm: Decodable {
        var orderId: String?
    }

    /// Looks an order id up at Apple (support scope), applies the answer and opens its owner.
    private func lookUpOrder(_ request: Request, context: PerennialRequestContext, session: DashboardSessions.Session) async throws -> Response {
        let fields = try await form(request, as: OrderForm.self)
        let app = try pathApp(context)
        let order = (fields.orderId ?? "").trimmingCharacters(in: .whitespaces)
        let answer = try await dependencies.perform(LookUpOrder(orderID: order, app: app), by: session.actingKey)
        let owners = answer.purchases.compactMap(\.appUserId)
        if Set(owners).count == 1, let owner = owners.first {
            return Response.redirect(to: Self.subscriberPath(app: app.id, user: owner), type: .normal)
        }
        return SearchPage.order(answer, appID: app.id, session: session).response
    }

    /// `/dashboard/apps/{app}/subscribers/{user}` with the user id percent-encoded as one path
    /// segment (ids may hold `/`, `?`, `#`…).
    static func subscriberPath(app: String, user: String) -> String {
        "/dashboard/apps/\(segment(app))/subscribers/\(segment(user))"
    }

    /// `/dashboard/apps/{app}/imports`, or one import's page under it.
    static func importsPath(app: String, importID: String? = nil) -> String {
        "/dashboard/apps/\(segment(app))/imports" + (importID.map { "/\(segment($0))" } ?? "")
    }

    /// `/dashboard/apps/{app}/offerings`.
    static func offeringsPath(app: String) -> String {
        "/dashboard/apps/\(segment(app))/offerings"
    }

    /// `/dashboard/apps/{app}/retention-rules`.
    static func retentionRulesPath(app: String) -> String {
        "/dashboard/apps/\(segment(app))/retention-rules"
    }

    /// `/dashboard/apps/{app}/experiments`.
    static func experimentsPath(app: String) -> String {
        "/dashboard/apps/\(segment(app))/experiments"
    }

    /// `text` percent-encoded as one path segment.
    private static func segment(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    // MARK: Forms and errors

    /// A form whose only field is the CSRF token the middleware checked.
    private struct NoFields: Decodable {}

    /// The posted form, whose CSRF token ``DashboardAuthentication`` checked and whose body it read
    /// (up to `limits.maxFormBytes`).
    private func form<Form: Decodable>(_ request: Request, as type: Form.Type) async throws -> Form {
        try Self.decodeForm(type, from: try await formBody(of: request))
    }

    /// The form's body, up to `limits.maxFormBytes`: its forms hold a key, a token and a search.
    private func formBody(of request: Request) async throws -> String {
        var request = request
        let limit = dependencies.limits.maxFormBytes
        do {
            return String(buffer: try await request.collectBody(upTo: limit))
        } catch {
            throw APIError(status: .contentTooLarge, code: "bodyTooLarge", message: "the form exceeds \(limit) bytes (limits.maxFormBytes)")
        }
    }

    /// The query's fields as a browser's GET form sends them, where `+` is a space: the URI's own
    /// parameters keep it a plus, so a search for an id pasted with a trailing space found nothing.
    private static func queryFields(of request: Request) throws -> [String: String] {
        try decodeForm([String: String].self, from: request.uri.query ?? "")
    }

    private static func decodeForm<Form: Decodable>(_ type: Form.Type, from body: String) throws -> Form {
        do {
            return try URLEncodedFormDecoder().decode(type, from: body)
        } catch {
            throw APIError.malformed("the form could not be read")
        }
    }

    /// Runs a page handler for the signed-in session, answering any error as an HTML page with
    /// its status and message (the admin API answers the same errors as JSON).
    private func page(
        _ context: PerennialRequestContext, _ handler: (DashboardSessions.Session) async throws -> Response
    ) async throws -> Response {
        guard let session = context.dashboardSession else { throw APIError(status: .internalServerError, code: "internal", message: "no session") }
        do {
            return try await handler(session)
        } catch let error as APIError {
            return DashboardPage.notice(error.status.reasonPhrase, error.body.message, session: session, status: error.status).response
        } catch let error as any HTTPResponseError & CustomStringConvertible {
            return DashboardPage.notice(error.status.reasonPhrase, error.description, session: session, status: error.status).response
        } catch {
            dependencies.logger.error("dashboard page failed: \(error)")
            return DashboardPage.notice("Something went wrong", "The server could not show this page; its log says why.", session: session,
                status: .internalServerError).response
        }
    }
}
