import PerennialClient
import PerennialCore
import Testing

extension ClientLive {
    /// The SDK names each period type the server sends under the server's own value: a trial
    /// the app tests with `== .freeTrial` must be one.
    @Suite struct PeriodTypeLiveTests {
        @Test func everyPeriodTypeTheServerSendsHasTheSDKsName() {
            let pairs: [(server: PerennialCore.PeriodType, sdk: PerennialClient.PeriodType)] = [
                (.normal, .normal), (.freeTrial, .freeTrial), (.introductoryPayAsYouGo, .introductoryPayAsYouGo),
                (.introductoryPayUpFront, .introductoryPayUpFront), (.introductory, .introductory), (.promotional, .promotional),
                (.offerCode, .offerCode), (.winBack, .winBack),
            ]
            for pair in pairs { #expect(pair.server.rawValue == pair.sdk.rawValue) }
            let trial = PerennialCore.PeriodType(offer: Offer(type: .introductory, paymentMode: .freeTrial))
            #expect(PerennialClient.PeriodType(rawValue: trial.rawValue) == .freeTrial)
        }
    }
}
