import Foundation
import PerennialAppStore

/// The dashboard's signed-in sessions, in memory: a restart signs everyone out, which is the
/// price of keeping no session secret on disk. A session id and its CSRF token are each 256
/// random bits, so neither can be guessed; a session ends after ``lifetime`` of the server's
/// wall clock, or when its holder signs out.
actor DashboardSessions {
    /// One signed-in browser: which admin key signed in, with that key's scope.
    struct Session: Sendable {
        let id: String
        let keyName: String
        let scope: AdminScope
        /// Sent back in every form that changes data; a cross-site form cannot know it.
        let csrfToken: String
        let expires: Date

        /// Whether `presented` is this session's CSRF token, compared in constant time.
        func accepts(csrfToken presented: String?) -> Bool {
            guard let presented else { return false }
            return ConstantTime.equals(presented, csrfToken)
        }
    }

    static let lifetime: TimeInterval = 8 * 3600
    /// Beyond this many live sessions the oldest is dropped, so repeated sign-ins cannot grow
    /// the store without bound.
    static let capacity = 1000

    private var sessions: [String: Session] = [:]

    /// A new session for the admin key named `keyName`, from `now`.
    func open(for keyName: String, scope: AdminScope, now: Date) -> Session {
        sessions = sessions.filter { $0.value.expires > now }
        if sessions.count >= Self.capacity, let oldest = sessions.values.min(by: { $0.expires < $1.expires }) {
            sessions[oldest.id] = nil
        }
        let session = Session(
            id: Self.randomToken(), keyName: keyName, scope: scope, csrfToken: Self.randomToken(), expires: now + Self.lifetime)
        sessions[session.id] = session
        return session
    }

    /// The live session `id` names, if any.
    func session(id: String, now: Date) -> Session? {
        guard let session = sessions[id] else { return nil }
        guard session.expires > now else {
            sessions[id] = nil
            return nil
        }
        return session
    }

    func close(id: String) {
        sessions[id] = nil
    }

    /// 256 bits from the system's cryptographic generator, base64url.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }
}
