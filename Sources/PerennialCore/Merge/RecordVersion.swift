import Foundation

/// A record that Apple may send in several versions (a transaction before and after its refund, a
/// renewal info before and after auto-renew was turned off).
///
/// The versions of one record are put in a TOTAL order so that "keep the newest" gives the same
/// answer whatever order the versions arrive in — the property that makes late, duplicated and
/// reordered evidence harmless: newer ``Provenance/versionDate`` first, then a real signature date
/// over a legacy answer time, then a deterministic comparison of the content.
protocol RecordVersion: Equatable, Encodable {
    var provenance: Provenance { get }
}

extension Transaction: RecordVersion {}
extension RenewalInfo: RecordVersion {}

extension RecordVersion {
    /// Whether this version replaces `other` (both being versions of the same record).
    func supersedes(_ other: Self) -> Bool {
        if provenance.versionDate != other.provenance.versionDate {
            return provenance.versionDate > other.provenance.versionDate
        }
        if provenance.isSigned != other.provenance.isSigned {
            return provenance.isSigned
        }
        if self == other { return false }
        return Self.canonicalBytes(of: other).lexicographicallyPrecedes(Self.canonicalBytes(of: self))
    }

    /// The record's content as sorted-key JSON: equal records give equal bytes and different
    /// records different bytes, which is all a tiebreak needs.
    private static func canonicalBytes(of record: Self) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Every field of a record is a string, number, bool, date or UUID, which JSONEncoder always
        // encodes; an empty fallback would only make two exotic records tie, never crash.
        return (try? encoder.encode(record)).map { Array($0) } ?? []
    }
}
