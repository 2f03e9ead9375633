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

    /// Decodes a JSON column; `table` and `key` name the row in the error.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, table: String, key: String) throws(StorageError) -> T {
        do {
            return try StorageJSONDecoder.decode(type, from: data)
        } catch {
            throw .corruptRow(table: table, key: key, reason: "\(error)")
        }
    }
}
