import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// Importing subscribers from a previous backend through the admin API (docs/import.md): the
/// file is the body (`?format=`), read and kept as a job that ``ImportJobs`` runs on any instance;
/// its progress and report answer any admin key. Importing binds purchases to users, so starting
/// one needs a support-scope key, as moving a purchase does.
struct ImportRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let reads = router.group("admin/v1/apps/:appId/imports").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        let actions = router.group("admin/v1/apps/:appId/imports").add(middleware: dependencies.adminAuthentication(requiring: .support))
        actions.post { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let name = request.uri.queryParameters.get("format") ?? ""
            guard let format = ImportInput.Format(rawValue: name) else {
                throw APIError.malformed("format must be one of \(ImportInput.Format.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(name)')")
            }
            let file = try await JSONResponse.body(of: request, context: context)
            let job: ImportJob
            do {
                job = try await ImportJobs.start(
                    file, format: format, app: app, admin: context.adminName, storage: dependencies.storage, now: dependencies.clock.now)
            } catch let error as ImportInput.Unusable {
                throw APIError.malformed(error.description)
            }
            dependencies.logger.info(
                "admin action: import started",
                metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "import": "\(job.id)", "rows": "\(job.totalRows)"])
            return JSONResponse.make(ImportStatus(job, problems: []), status: .accepted)
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
