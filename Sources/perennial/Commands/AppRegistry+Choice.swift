import ArgumentParser
import PerennialServer

extension AppRegistry {
    /// The app a maintenance command's `--app` names, or the only one configured without it.
    func chosen(_ id: String?) throws -> AppContext {
        if let id {
            guard let found = app(id: id) else { throw ValidationError("no app \(id) is configured (\(apps.map(\.id).joined(separator: ", ")))") }
            return found
        }
        guard apps.count == 1, let only = apps.first else { throw ValidationError("name the app with --app (\(apps.count) apps are configured)") }
        return only
    }
}
