import Foundation
import PerennialAppStore
import X509

extension TrustedRoots {
    /// Loads every root certificate from the given files (DER or PEM).
    static func load(paths: [String]) throws -> [Certificate] {
        try paths.flatMap { try load(contentsOf: URL(fileURLWithPath: $0)) }
    }
}
