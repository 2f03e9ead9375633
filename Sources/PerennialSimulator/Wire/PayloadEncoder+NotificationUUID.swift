public import Foundation
import PerennialCore

extension PayloadEncoder {
    /// A notification UUID derived from the store's seed and the notification's ordinal, so runs
    /// are reproducible while every notification of a run gets its own idempotency key.
    public static func notificationUUID(seed: UInt64, ordinal: UInt64) -> UUID {
        var generator = SeededRandomNumberGenerator(seed: seed ^ (ordinal &* 0xD1B5_4A32_D192_ED03))
        let high = generator.next()
        // Version 4 and RFC 4122 variant bits, so the value reads as an ordinary random UUID.
        let highWithVersion = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        var bytes = [UInt8]()
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: highWithVersion >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
}
