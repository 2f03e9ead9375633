/// What kind of period a transaction pays for, derived from its offer.
///
/// An ``OpenValue`` because it mirrors Apple's growing offer types: a type Perennial does not know
/// is reported under Apple's raw name instead of being folded into `normal`.
public struct PeriodType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A full-price period.
    public static let normal: Self = "normal"
    /// An introductory free trial.
    public static let freeTrial: Self = "freeTrial"
    /// An introductory price paid period by period.
    public static let introductoryPayAsYouGo: Self = "introductoryPayAsYouGo"
    /// An introductory price paid once for several periods.
    public static let introductoryPayUpFront: Self = "introductoryPayUpFront"
    /// An introductory offer whose payment mode the evidence does not say (legacy
    /// `is_in_intro_offer_period`).
    public static let introductory: Self = "introductory"
    public static let promotional: Self = "promotional"
    public static let offerCode: Self = "offerCode"
    public static let winBack: Self = "winBack"

    /// The period type a transaction with this offer has.
    public init(offer: Offer?) {
        guard let offer else {
            self = .normal
            return
        }
        switch offer.type {
        case .introductory:
            switch offer.paymentMode ?? "" {
            case .freeTrial: self = .freeTrial
            case .payAsYouGo: self = .introductoryPayAsYouGo
            case .payUpFront: self = .introductoryPayUpFront
            default: self = .introductory
            }
        case .promotional: self = .promotional
        case .offerCode: self = .offerCode
        case .winBack: self = .winBack
        default: self.init(rawValue: offer.type.rawValue)
        }
    }

    /// Whether this is one of the once-per-group introductory offers.
    public var isIntroductory: Bool {
        self == .freeTrial || self == .introductoryPayAsYouGo || self == .introductoryPayUpFront || self == .introductory
    }
}
