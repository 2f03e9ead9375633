import Foundation
import NIOConcurrencyHelpers
import PerennialCore
import PerennialSimulator

/// The server's "now" in a live system: the simulator's virtual instant, copied whenever the
/// simulator may have moved it (before each notification it delivers, after each request to its
/// HTTP API, after ``LiveSystem/advance(by:)``), so months of subscription time pass for the server
/// too while the simulator stays the only clock anyone moves.
final class LiveClock: TimeSource {
    private let instant: NIOLockedValueBox<Date>
    private let source = NIOLockedValueBox<AppStoreSimulator?>(nil)

    init(_ start: Date) { instant = NIOLockedValueBox(start) }

    var now: Date { instant.withLockedValue { $0 } }

    /// Follows `simulator` from now on.
    func follow(_ simulator: AppStoreSimulator) {
        source.withLockedValue { $0 = simulator }
    }

    /// Copies the simulator's instant (never moving backwards).
    func synchronize() async {
        guard let simulator = source.withLockedValue({ $0 }) else { return }
        let target = await simulator.now
        instant.withLockedValue { $0 = max($0, target) }
    }
}

/// Delivers notifications over HTTP, first bringing the server's clock to the simulator's instant
/// so the server ingests each notification at the time Apple sends it.
struct ClockSyncingTransport: NotificationTransport {
    let clock: LiveClock
    let base: any NotificationTransport

    func post(_ body: Data, to url: URL) async -> DeliveryOutcome {
        await clock.synchronize()
        return await base.post(body, to: url)
    }
}
