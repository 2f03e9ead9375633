/// The strict reading of an object nested in an admin body (``JSONResponse/decodeStrictly(_:from:)``
/// checks only the top level): a misspelt member would otherwise be dropped and its default used.
enum StrictKeys {
    /// Throws a decoding error naming the members of the object `decoder` reads that are not `known`.
    static func refuseUnknown(in decoder: any Decoder, known: [String], what: String) throws {
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(what) has the unknown key \(unknown.joined(separator: ", ")); it takes \(known.sorted().joined(separator: ", "))"))
        }
    }

    /// Any member name.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
