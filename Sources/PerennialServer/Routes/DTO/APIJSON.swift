public import Foundation
import PerennialAppStore

/// The hand-written subscriber answer's date text (``APIJSONWriter``): the same text as
/// `PerennialWire.WireJSON`'s encoder writes, without a formatter's cost, for the answer every read
/// and every purchase gets (`APIJSONWriterTests` holds the two equal).
public enum APIJSON {
    /// Formats an instant as the API writes it.
    public static func string(from date: Date) -> String {
        RFC3339Date.formatWithMilliseconds(date)
    }
}
