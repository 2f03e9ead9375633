/// Why the developer extended a renewal date (Apple's `extendReasonCode`; raw values are Apple's).
public enum RenewalExtensionReason: Int, Hashable, Sendable, Codable {
    case undeclared = 0
    case customerSatisfaction = 1
    case other = 2
    case serviceIssueOrOutage = 3
}
