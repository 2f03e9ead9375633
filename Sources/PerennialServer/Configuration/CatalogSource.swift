import Foundation
import PerennialAppStore
public import PerennialCore

/// Where an app's product catalog comes from: a catalog file (docs/catalog.md) or a catalog built
/// in code (tests, an in-process simulator).
public enum CatalogSource: Sendable, Decodable, CustomStringConvertible {
    case file(String)
    case catalog(Catalog)

    public init(from decoder: any Decoder) throws {
        self = .file(try decoder.singleValueContainer().decode(String.self))
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .catalog: "in-memory catalog"
        }
    }

    /// The validated catalog.
    public func load(app: String) throws(ConfigurationError) -> Catalog {
        switch self {
        case .catalog(let catalog):
            return catalog
        case .file(let path):
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .catalog(app: app, reason: "cannot read \(path): \(SystemErrorReason.of(error))")
            }
            do throws(CatalogError) {
                return try CatalogLoader.load(json: data)
            } catch {
                throw .catalog(app: app, reason: "\(path): \(error)")
            }
        }
    }

    func resolvingPath(relativeTo directory: URL) -> CatalogSource {
        guard case .file(let path) = self else { return self }
        return .file(ConfigurationPaths.absolute(path, relativeTo: directory))
    }
}
