import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// The admin API's door to imports from a previous backend (docs/import.md): the file is the
/// body (`?format=`) of ``StartImport``; the app's imports, and each one's progress and report,
/// answer any admin key.
struct ImportRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let imports = router.group("admin/v1/apps/:appId/imports")
        let reads = imports.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        imports.action(.post, "", dependencies: dependencies) { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let name = request.uri.queryParameters.get("format") ?? ""
            guard let format = ImportInput.Format(rawValue: name) else {
                throw APIError.malformed("format must be one of \(ImportInput.Format.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(name)')")
            }
            return StartImport(file: try await JSONResponse.body(of: request, context: context), format: format, app: app)
        } answer: {
            JSONResponse.make($0, status: .accepted)
        }
        reads.get("") { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let jobs = try await dependencies.storage.imports(appBundleID: app.bundleID, limit: try QueryLimit.from(request))
            return JSONResponse.make(ImportList(imports: jobs.map { ImportStatus($0, problems: nil) }))
        }
        reads.get(":importId") { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let id = context.parameters.get("importId") ?? ""
            guard let job = try await dependencies.storage.importJob(id: id), job.appBundleID == app.bundleID else {
                throw APIError.notFound("app \(app.id) has no import \(id)")
            }
            let after = try request.uri.queryParameters.get("after").map { text throws(APIError) in
                guard let line = Int(text), line >= 0 else { throw APIError.malformed("after must be a line number (got '\(text)')") }
                return line
            }
            let problems = try await dependencies.storage.importProblems(of: id, after: after ?? 0, limit: try QueryLimit.from(request))
            return JSONResponse.make(ImportStatus(job, problems: problems))
        }
    }
}
