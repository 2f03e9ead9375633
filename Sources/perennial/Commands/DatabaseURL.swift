import Foundation

/// The `--database` / `PERENNIAL_DATABASE_URL` value: which back end `perennial serve` uses.
enum DatabaseURL: Equatable {
    /// `sqlite:PATH`: the embedded default, one file in WAL mode.
    case sqlite(path: String)
    /// `postgres://…` or `postgresql://…`: a shared PostgreSQL for several instances.
    case postgres(url: String)

    /// Why a database URL is not usable.
    struct Unsupported: Error, CustomStringConvertible {
        let value: String
        var description: String { "unsupported database URL \"\(value)\": use sqlite:PATH or postgres://user:password@host/database" }
    }

    init(_ text: String) throws(Unsupported) {
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw Unsupported(value: text) }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            throw Unsupported(value: text)
        }
    }
}
