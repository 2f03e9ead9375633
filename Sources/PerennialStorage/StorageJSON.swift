public import Foundation

/// The one JSON format of stored records, views and events, shared by every back end so a database
/// can be read by either and rows compare byte for byte.
///
/// Keys are sorted so equal values give equal bytes; dates keep full `Double` precision. Rows are
/// written with ``StorageJSONEncoder`` and read back with ``StorageJSONDecoder``: what Foundation's
/// encoder and decoder would give, faster.
public enum StorageJSON {
    /// Encodes a value for a JSON column.
    public static func encode(_ value: some Encodable, what: String) throws(StorageError) -> Data {
        do {
            do {
                return try StorageJSONEncoder.encode(value)
            } catch is StorageJSONEncoder.Unsupported {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return try encoder.encode(value)
            }
        } catch {
            throw .encoding(what: what, reason: "\(error)")
        }
    }

    /// Decodes a JSON column as a back end reads it (text); `table` and `key` name the row in the error.
    public static func decode<T: Decodable>(_ type: T.Type, from json: String, table: String, key: String) throws(StorageError) -> T {
        // The text's UTF-8 straight into the decoder's buffer: one copy, not two through `Data`.
        try decode(type, bytes: Array(json.utf8), table: table, key: key)
    }

    /// Decodes JSON bytes; `table` and `key` name the row in the error.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, table: String, key: String) throws(StorageError) -> T {
        try decode(type, bytes: Array(data), table: table, key: key)
    }

    private static func decode<T: Decodable>(_ type: T.Type, bytes: [UInt8], table: String, key: String) throws(StorageError) -> T {
        try decode(type, bytes: bytes, in: bytes.indices, table: table, key: key)
    }

    /// Decodes the JSON at `range` of a buffer holding several documents back to back (a
    /// rebuild's batch), in place; `table` and `key` name the row in the error.
    public static func decode<T: Decodable>(_ type: T.Type, bytes: [UInt8], in range: Range<Int>, table: String, key: String) throws(StorageError) -> T {
        do {
            return try StorageJSONDecoder.decode(type, from: bytes, in: range)
        } catch {
            throw .corruptRow(table: table, key: key, reason: "\(error)")
        }
    }
}
