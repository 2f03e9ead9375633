import Foundation

/// Decoding and key-set helpers shared by the wire and normalization tests.
enum WireJSON {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// Every key path of a JSON document (`data.lastTransactions[].status`), so two documents can
    /// be compared by shape regardless of values and order.
    static func keyPaths(_ data: Data) throws -> Set<String> {
        var paths: Set<String> = []
        collect(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]), prefix: "", into: &paths)
        return paths
    }

    private static func collect(_ value: Any, prefix: String, into paths: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (key, member) in object {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                collect(member, prefix: path, into: &paths)
            }
        } else if let array = value as? [Any] {
            for element in array {
                collect(element, prefix: prefix + "[]", into: &paths)
            }
        }
    }

    /// A date from UNIX epoch milliseconds, as Apple writes them.
    static func ms(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
