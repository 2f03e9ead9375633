import Foundation

/// The committed corpus: `FuzzCorpus/<target>/<entry>` beside this folder, read in name order.
///
/// `seed-…` entries are real payloads written by ``FuzzCorpusSeeds`` (each must be accepted, or
/// the target no longer reaches its parser); `regression-…` entries are inputs that once broke a
/// parser; inputs libFuzzer finds (`Scripts/fuzz`) are named by their digest.
enum FuzzCorpus {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")

    struct Entry {
        let name: String
        let bytes: Data

        var isSeed: Bool { name.hasPrefix("seed-") }
    }

    static func entries(of target: String) throws -> [Entry] {
        let folder = directory.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            Entry(name: $0, bytes: try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }
}
