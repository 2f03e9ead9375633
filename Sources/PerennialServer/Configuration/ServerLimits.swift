public import NIOCore

/// What one client may cost the server (`"limits"` in the configuration file, docs/configuration.md):
/// how long each phase of a connection may take, how many connections are open at once, how large
/// a body is read, and how fast the public routes and failed sign-ins are answered.
///
/// A public server meets clients that send nothing, stop halfway, hold connections open or guess
/// keys; every bound here is what turns such a client from a resource it holds into one request
/// it is refused. Rates are counted per instance: N instances behind a load balancer allow N times
/// as much.
public struct ServerLimits: Sendable, Equatable {
    /// From a connection's start, or a request's first byte, until its head is read.
    public var headerTimeout: TimeAmount
    /// From a request's head until its body ends.
    public var bodyTimeout: TimeAmount
    /// How long a keep-alive connection may wait between an answer and the next request. Longer
    /// than a load balancer's idle timeout (60 s on the common ones), so the balancer, not the
    /// server, closes an idle connection and never sends a request onto one being closed.
    public var idleTimeout: TimeAmount
    /// After an answer that closes the connection, how long the client's unread bytes are drained
    /// (and dropped) so the answer reaches it before the connection is reset.
    public var linger: TimeAmount
    /// Open connections at most; past it new ones wait in the listen backlog. The server also keeps
    /// ``reservedFileDescriptors`` of its open-file limit for everything else.
    public var maxConnections: Int
    /// File descriptors kept for the database, Apple, webhooks and logs, out of the process's
    /// open-file limit, when the connection cap is derived from it.
    public var reservedFileDescriptors: Int
    /// The largest JSON body read (receipts are the largest: a few hundred KB).
    public var maxBodyBytes: Int
    /// The largest dashboard form read.
    public var maxFormBytes: Int
    /// The largest metadata of one offering, all locales, as JSON (docs/offerings.md): every app
    /// user asking for offerings is sent every offering of the app, so this bounds that answer.
    public var maxOfferingMetadataBytes: Int
    /// The most variants of one experiment (docs/experiments.md): each is an offering every
    /// assigned user is sent, and a column of the results.
    public var maxExperimentVariants: Int
    /// The most exposed users an experiment's results read (each user's records are read in
    /// full): beyond it the results are refused rather than hold a request for minutes.
    public var maxExperimentResultUsers: Int
    /// The most retention rules of one app (docs/retention-rules.md): every apply of the app reads
    /// them all, inside its transaction.
    public var maxRetentionRules: Int
    /// The longest a retention rule's choice may be answered, in days: an offer kept for a
    /// customer long after they left is no longer an answer to their leaving.
    public var maxRetentionValidDays: Int
    /// Requests per second one address may make to the public client routes (`/v1/subscribers`),
    /// with bursts of ``clientBurst``.
    public var clientRequestsPerSecondPerAddress: Double
    /// Requests per second all callers together may make with one app's public key.
    public var clientRequestsPerSecondPerKey: Double
    /// How many requests above the steady rate a client may send at once.
    public var clientBurst: Double
    /// Failed authentications (a wrong admin key, a wrong dashboard sign-in, an unknown client key)
    /// an address may make before its next attempts wait: each further failure doubles the wait,
    /// from one second up to ``maxFailureBackoff``; a success clears it.
    public var failuresBeforeBackoff: Int
    public var maxFailureBackoff: TimeAmount
    /// Whether the caller's address is the last one in `X-Forwarded-For` (set by the reverse proxy
    /// in front, docs/production.md) instead of the connection's peer: only behind a proxy, since
    /// a client talking to the server directly can write any `X-Forwarded-For`.
    public var trustForwardedFor: Bool

    public init(
        headerTimeout: TimeAmount = .seconds(10), bodyTimeout: TimeAmount = .seconds(30), idleTimeout: TimeAmount = .seconds(75),
        linger: TimeAmount = .seconds(2), maxConnections: Int = 4_096, reservedFileDescriptors: Int = 256,
        maxBodyBytes: Int = 4 * 1024 * 1024, maxFormBytes: Int = 16 * 1024, maxOfferingMetadataBytes: Int = 64 * 1024, clientRequestsPerSecondPerAddress: Double = 30,
        clientRequestsPerSecondPerKey: Double = 5_000, clientBurst: Double = 60, failuresBeforeBackoff: Int = 5,
        maxFailureBackoff: TimeAmount = .seconds(300), trustForwardedFor: Bool = false, maxExperimentVariants: Int = 10,
        maxExperimentResultUsers: Int = 100_000, maxRetentionRules: Int = 50, maxRetentionValidDays: Int = 365
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.linger = linger
        self.maxConnections = maxConnections
        self.reservedFileDescriptors = reservedFileDescriptors
        self.maxBodyBytes = maxBodyBytes
        self.maxFormBytes = maxFormBytes
        self.maxOfferingMetadataBytes = maxOfferingMetadataBytes
        self.clientRequestsPerSecondPerAddress = clientRequestsPerSecondPerAddress
        self.clientRequestsPerSecondPerKey = clientRequestsPerSecondPerKey
        self.clientBurst = clientBurst
        self.failuresBeforeBackoff = failuresBeforeBackoff
        self.maxFailureBackoff = maxFailureBackoff
        self.trustForwardedFor = trustForwardedFor
        self.maxExperimentVariants = maxExperimentVariants
        self.maxExperimentResultUsers = maxExperimentResultUsers
        self.maxRetentionRules = maxRetentionRules
        self.maxRetentionValidDays = maxRetentionValidDays
    }

    /// The connection cap for a process allowed `openFiles` descriptors: ``maxConnections``, or
    /// fewer when the limit would otherwise run out before the cap (then every accept fails and
    /// no request is answered, the probe's 1,100 idle connections under 1,024 files).
    public func connectionCap(openFiles: Int) -> Int {
        max(1, min(maxConnections, openFiles - reservedFileDescriptors))
    }
}

extension ServerLimits: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case headerTimeoutSeconds, bodyTimeoutSeconds, idleTimeoutSeconds, lingerSeconds, maxConnections, reservedFileDescriptors
        case maxBodyBytes, maxFormBytes, maxOfferingMetadataBytes, clientRequestsPerSecondPerAddress, clientRequestsPerSecondPerKey, clientBurst
        case failuresBeforeBackoff, maxFailureBackoffSeconds, trustForwardedFor, maxExperimentVariants, maxExperimentResultUsers
        case maxRetentionRules, maxRetentionValidDays
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var limits = ServerLimits()
        func seconds(_ key: CodingKeys, _ value: inout TimeAmount) throws {
            guard let seconds = try positive(key) else { return }
            value = .nanoseconds(Int64(seconds * 1e9))
        }
        func positive(_ key: CodingKeys) throws -> Double? {
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
            // Bounded before any conversion: a day is more than any client phase needs.
            guard value > 0, value <= 86_400 * 365 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(value) is not a positive number below a year")
            }
            return value
        }
        func count(_ key: CodingKeys, _ value: inout Int) throws {
            guard let number = try positive(key) else { return }
            guard number == number.rounded() else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(number) is not a whole number")
            }
            value = Int(number)
        }
        try seconds(.headerTimeoutSeconds, &limits.headerTimeout)
        try seconds(.bodyTimeoutSeconds, &limits.bodyTimeout)
        try seconds(.idleTimeoutSeconds, &limits.idleTimeout)
        try seconds(.lingerSeconds, &limits.linger)
        try seconds(.maxFailureBackoffSeconds, &limits.maxFailureBackoff)
        try count(.maxConnections, &limits.maxConnections)
        try count(.reservedFileDescriptors, &limits.reservedFileDescriptors)
        try count(.maxBodyBytes, &limits.maxBodyBytes)
        try count(.maxFormBytes, &limits.maxFormBytes)
        try count(.maxOfferingMetadataBytes, &limits.maxOfferingMetadataBytes)
        try count(.failuresBeforeBackoff, &limits.failuresBeforeBackoff)
        try count(.maxExperimentVariants, &limits.maxExperimentVariants)
        try count(.maxExperimentResultUsers, &limits.maxExperimentResultUsers)
        try count(.maxRetentionRules, &limits.maxRetentionRules)
        try count(.maxRetentionValidDays, &limits.maxRetentionValidDays)
        limits.clientRequestsPerSecondPerAddress = try positive(.clientRequestsPerSecondPerAddress) ?? limits.clientRequestsPerSecondPerAddress
        limits.clientRequestsPerSecondPerKey = try positive(.clientRequestsPerSecondPerKey) ?? limits.clientRequestsPerSecondPerKey
        limits.clientBurst = try positive(.clientBurst) ?? limits.clientBurst
        limits.trustForwardedFor = try container.decodeIfPresent(Bool.self, forKey: .trustForwardedFor) ?? limits.trustForwardedFor
        self = limits
    }
}
