import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API's door to an app's retention rules (``RetentionRuleActions``,
/// docs/retention-rules.md): any admin key reads them; adding, replacing and removing are actions.
struct RetentionRuleRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let app = router.group("admin/v1/apps/:appId")
        let reads = app.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        reads.get("retention-rules") { _, context in
            let rules = try await dependencies.storage.retentionRules(appBundleID: try pathApp(context).bundleID)
            return JSONResponse.make(RetentionRuleListResponse(rules: rules.map(RetentionRuleResponse.init)))
        }
        reads.get("retention-rules/:ruleId") { _, context in
            let app = try pathApp(context)
            let id = ruleID(context)
            guard let rule = try await dependencies.storage.retentionRules(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
                throw RetentionRuleError.noSuchRule(id, app: app.id)
            }
            return JSONResponse.make(RetentionRuleResponse(rule))
        }
        app.action(.post, "retention-rules", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return AddRetentionRule(request: try await JSONResponse.decodeStrictly(RetentionRuleRequest.self, from: request, context: context), app: app)
        } answer: {
            JSONResponse.make(RetentionRuleResponse($0), status: .created)
        }
        app.action(.put, "retention-rules/:ruleId", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(RetentionRuleRequest.self, from: request, context: context)
            return ReplaceRetentionRule(ruleID: ruleID(context), request: body, app: app)
        } answer: {
            JSONResponse.make(RetentionRuleResponse($0))
        }
        app.action(.delete, "retention-rules/:ruleId", dependencies: dependencies) { _, context in
            RemoveRetentionRule(ruleID: ruleID(context), app: try pathApp(context))
        } answer: {
            JSONResponse.make(RetentionRuleResponse($0))
        }
    }

    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    private func ruleID(_ context: PerennialRequestContext) -> String {
        context.parameters.get("ruleId") ?? ""
    }
}
