extension SandboxTimeScale {
    /// Reads a renewal rate as scenario files and the CLI spell it: `production`, a short form
    /// (`1h`, `30min`, `15min`, `5min`, `3min`) or Apple's rate name
    /// (`MONTHLY_RENEWAL_EVERY_FIVE_MINUTES`).
    public init?(scenarioText text: String) {
        let short: [String: SandboxRenewalRate] = [
            "1h": .everyOneHour, "60min": .everyOneHour, "30min": .everyThirtyMinutes, "15min": .everyFifteenMinutes,
            "5min": .everyFiveMinutes, "3min": .everyThreeMinutes,
        ]
        if text == "production" {
            self = .production
        } else if let rate = short[text] ?? SandboxRenewalRate(rawValue: text) {
            self = .sandbox(rate)
        } else {
            return nil
        }
    }
}
