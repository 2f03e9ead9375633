import PerennialWire
import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// `POST /v1/subscribers/:appUserId/log-in`: the client SDK's anonymous user logs in as the path's
/// (identified) user, and the purchases made while anonymous follow the app's transfer policy —
/// `transfer` moves them to the identified user, `keepWithOriginalOwner` leaves them and says so
/// (the answer's `kept`, an `ownershipKept` entry and event for both users).
///
/// The move is the support desk's (``EvidencePipeline/moves(of:only:to:by:)``) presented by the
/// identified user: the same decision, audit entries and webhook events as any other presenter.
/// A retry after a lost answer moves nothing more (the anonymous user owns nothing left) or, when
/// the purchases were kept, is the same evidence again, applied once: either way the same answer.
extension ClientRoutes {
    func addLogIn(to subscribers: RouterGroup<PerennialRequestContext>) {
        subscribers.post(":appUserId/log-in") { request, context in
            let (app, user) = try context.client()
            let body = try await JSONResponse.decode(LogInRequest.self, from: request, context: context)
            let anonymous = try PathUser.checked(body.anonymousAppUserId, named: "anonymousAppUserId")
            guard AnonymousUser.isAnonymous(anonymous) else {
                throw APIError(
                    status: .unprocessableContent, code: "notAnonymous",
                    message: "anonymousAppUserId must be an id the SDK made up (\(AnonymousUser.prefix)…): only an anonymous user's purchases follow a log-in")
            }
            guard !AnonymousUser.isAnonymous(user) else {
                throw APIError(status: .unprocessableContent, code: "anonymousLogIn", message: "log in as an identified user, not \(user)")
            }
            let now = dependencies.clock.now
            let pipeline = dependencies.pipeline(for: app)
            var outcome: EvidencePipeline.Outcome?
            for move in try await pipeline.moves(of: anonymous, to: user, by: .logIn) {
                outcome = try await pipeline.ingest(move, now: now)
            }
            dependencies.logger.info(
                "anonymous user logged in",
                metadata: ["app": "\(app.id)", "from": "\(anonymous)", "to": "\(user)", "hadPurchases": "\(outcome != nil)"])
            return JSONResponse.make(try await pipeline.answer(for: user, after: outcome, now: now), signedBy: app)
        }
    }
}
