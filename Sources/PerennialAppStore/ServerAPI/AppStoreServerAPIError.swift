import Foundation

/// Why an App Store Server API call produced no result.
public indirect enum AppStoreServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple answered with an error body.
    case api(status: Int, code: APIErrorCode, message: String)
    /// 401: the token was rejected (wrong key, key ID, issuer, bundle ID, or an expired token).
    case unauthorized
    /// 429: the hourly rate limit was hit; `retryAfter` is the server's requested wait, if given.
    case rateLimited(retryAfter: Duration?)
    /// A non-2xx answer without Apple's error body (a proxy's HTML page, an empty 404).
    case unexpectedResponse(status: Int, bodyExcerpt: String)
    /// The exchange did not complete (connection, TLS, timeout).
    case transport(String)
    /// A success body did not decode as the expected type, or pagination cursors were inconsistent.
    case decoding(String)
    /// A request body could not be encoded, or the endpoint does not form a valid URL.
    case invalidRequest(String)
    /// The authentication token could not be signed.
    case signing(String)
    /// Every attempt the retry policy allows failed transiently; `last` is the final failure.
    case retriesExhausted(last: AppStoreServerAPIError)

    /// A readable reason with the offending value.
    public var description: String {
        switch self {
        case .api(let status, let code, let message): "App Store Server API error \(code) (HTTP \(status)): \(message)"
        case .unauthorized: "App Store Server API rejected the token (HTTP 401)"
        case .rateLimited(let retryAfter): "App Store Server API rate limit exceeded" + (retryAfter.map { ", retry after \($0)" } ?? "")
        case .unexpectedResponse(let status, let excerpt): "App Store Server API answered HTTP \(status): \(excerpt)"
        case .transport(let reason): "App Store Server API unreachable: \(reason)"
        case .decoding(let reason): "App Store Server API answer could not be decoded: \(reason)"
        case .invalidRequest(let reason): "App Store Server API request is invalid: \(reason)"
        case .signing(let reason): "App Store Server API token could not be signed: \(reason)"
        case .retriesExhausted(let last): "App Store Server API retries exhausted; last failure: \(last)"
        }
    }
}

/// An `errorCode` from an App Store Server API error body (`{"errorCode": …, "errorMessage": …}`).
///
/// An open value rather than an enum: Apple adds codes with new endpoints, and an unknown code must
/// still be reported with its number. The named codes are those Apple documents for the App Store
/// Server API.
public struct APIErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Apple's numeric code.
    public let rawValue: Int

    /// Wraps a numeric code.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Whether Apple documents the code as temporary ("…retryable"): the request may succeed if
    /// sent again later.
    public var isRetryable: Bool {
        Self.retryable.contains(self)
    }

    /// Whether Apple says that what was asked about does not exist (a transaction, an original
    /// transaction, an account, an app transaction, a test notification…): for whoever asked
    /// Perennial, a "not found", not a failure on Apple's side. Apple's codes begin with the HTTP
    /// status they come with, so this holds for every 404 code Apple documents, and for those it
    /// adds later; the retryable ones are excluded, as Apple may yet find the thing.
    public var isNotFound: Bool {
        rawValue / 10_000 == 404 && !isRetryable
    }

    /// The code's number.
    public var description: String { String(rawValue) }

    private static let retryable: Set<APIErrorCode> = [
        .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable,
        .generalInternalRetryable,
    ]

    // 400
    /// An invalid request.
    public static let generalBadRequest = Self(rawValue: 4_000_000)
    /// An invalid app identifier.
    public static let invalidAppIdentifier = Self(rawValue: 4_000_002)
    /// An invalid request revision.
    public static let invalidRequestRevision = Self(rawValue: 4_000_005)
    /// An invalid transaction identifier.
    public static let invalidTransactionId = Self(rawValue: 4_000_006)
    /// An invalid original transaction identifier.
    public static let invalidOriginalTransactionId = Self(rawValue: 4_000_008)
    /// An invalid extend-by-days value.
    public static let invalidExtendByDays = Self(rawValue: 4_000_009)
    /// An invalid extend reason code.
    public static let invalidExtendReasonCode = Self(rawValue: 4_000_010)
    /// An invalid request identifier.
    public static let invalidRequestIdentifier = Self(rawValue: 4_000_011)
    /// The start date is earlier than the earliest allowed date.
    public static let startDateTooFarInPast = Self(rawValue: 4_000_012)
    /// The end date precedes (or equals) the start date.
    public static let startDateAfterEndDate = Self(rawValue: 4_000_013)
    /// An invalid pagination token.
    public static let invalidPaginationToken = Self(rawValue: 4_000_014)
    /// An invalid start date.
    public static let invalidStartDate = Self(rawValue: 4_000_015)
    /// An invalid end date.
    public static let invalidEndDate = Self(rawValue: 4_000_016)
    /// The pagination token expired.
    public static let paginationTokenExpired = Self(rawValue: 4_000_017)
    /// An invalid notification type or subtype.
    public static let invalidNotificationType = Self(rawValue: 4_000_018)
    /// Too many filters in one request.
    public static let multipleFiltersSupplied = Self(rawValue: 4_000_019)
    /// An invalid test notification token.
    public static let invalidTestNotificationToken = Self(rawValue: 4_000_020)
    /// An invalid sort parameter.
    public static let invalidSort = Self(rawValue: 4_000_021)
    /// An invalid product type parameter.
    public static let invalidProductType = Self(rawValue: 4_000_022)
    /// An invalid product identifier parameter.
    public static let invalidProductId = Self(rawValue: 4_000_023)
    /// An invalid subscription group identifier.
    public static let invalidSubscriptionGroupIdentifier = Self(rawValue: 4_000_024)
    /// An invalid exclude-revoked parameter.
    public static let invalidExcludeRevoked = Self(rawValue: 4_000_025)
    /// An invalid in-app ownership type parameter.
    public static let invalidInAppOwnershipType = Self(rawValue: 4_000_026)
    /// An empty storefront country code list.
    public static let invalidEmptyStorefrontCountryCodeList = Self(rawValue: 4_000_027)
    /// An invalid storefront country code.
    public static let invalidStorefrontCountryCode = Self(rawValue: 4_000_028)
    /// An invalid revoked parameter.
    public static let invalidRevoked = Self(rawValue: 4_000_030)
    /// An invalid status parameter.
    public static let invalidStatus = Self(rawValue: 4_000_031)
    /// An invalid account tenure (consumption information).
    public static let invalidAccountTenure = Self(rawValue: 4_000_032)
    /// An invalid app account token (consumption information).
    public static let invalidAppAccountToken = Self(rawValue: 4_000_033)
    /// An invalid consumption status.
    public static let invalidConsumptionStatus = Self(rawValue: 4_000_034)
    /// The customer did not consent, or the field is invalid.
    public static let invalidCustomerConsented = Self(rawValue: 4_000_035)
    /// An invalid delivery status.
    public static let invalidDeliveryStatus = Self(rawValue: 4_000_036)
    /// An invalid lifetime-dollars-purchased bucket.
    public static let invalidLifetimeDollarsPurchased = Self(rawValue: 4_000_037)
    /// An invalid lifetime-dollars-refunded bucket.
    public static let invalidLifetimeDollarsRefunded = Self(rawValue: 4_000_038)
    /// An invalid platform.
    public static let invalidPlatform = Self(rawValue: 4_000_039)
    /// An invalid play time bucket.
    public static let invalidPlayTime = Self(rawValue: 4_000_040)
    /// An invalid sample-content-provided value.
    public static let invalidSampleContentProvided = Self(rawValue: 4_000_041)
    /// An invalid user status.
    public static let invalidUserStatus = Self(rawValue: 4_000_042)
    /// The transaction is not a consumable.
    public static let invalidTransactionNotConsumable = Self(rawValue: 4_000_043)
    /// The transaction's type is not supported by the endpoint.
    public static let invalidTransactionTypeNotSupported = Self(rawValue: 4_000_047)
    /// The endpoint does not accept an app transaction identifier.
    public static let appTransactionIdNotSupported = Self(rawValue: 4_000_048)
    /// The app account token is not a UUID.
    public static let invalidAppAccountTokenUUID = Self(rawValue: 4_000_183)
    /// Family-shared transactions are not supported by the endpoint.
    public static let familyTransactionNotSupported = Self(rawValue: 4_000_185)
    /// The transaction identifier is not an original transaction identifier.
    public static let transactionIdIsNotOriginalTransactionId = Self(rawValue: 4_000_187)

    // 403
    /// The subscription is not eligible for a renewal-date extension.
    public static let subscriptionExtensionIneligible = Self(rawValue: 4_030_004)
    /// The subscription reached the maximum number of extensions.
    public static let subscriptionMaxExtension = Self(rawValue: 4_030_005)
    /// Family-shared subscriptions cannot be extended.
    public static let familySharedSubscriptionExtensionIneligible = Self(rawValue: 4_030_007)

    // 404
    /// The account was not found.
    public static let accountNotFound = Self(rawValue: 4_040_001)
    /// The account was not found; retry later.
    public static let accountNotFoundRetryable = Self(rawValue: 4_040_002)
    /// The app was not found.
    public static let appNotFound = Self(rawValue: 4_040_003)
    /// The app was not found; retry later.
    public static let appNotFoundRetryable = Self(rawValue: 4_040_004)
    /// The original transaction identifier was not found.
    public static let originalTransactionIdNotFound = Self(rawValue: 4_040_005)
    /// The original transaction identifier was not found; retry later.
    public static let originalTransactionIdNotFoundRetryable = Self(rawValue: 4_040_006)
    /// No server notification URL is configured.
    public static let serverNotificationURLNotFound = Self(rawValue: 4_040_007)
    /// The test notification was not found.
    public static let testNotificationNotFound = Self(rawValue: 4_040_008)
    /// The mass-extension status request was not found.
    public static let statusRequestNotFound = Self(rawValue: 4_040_009)
    /// The transaction identifier was not found.
    public static let transactionIdNotFound = Self(rawValue: 4_040_010)
    /// The app transaction does not exist.
    public static let appTransactionDoesNotExist = Self(rawValue: 4_040_019)

    // Retention Messaging
    /// The uploaded image is not a PNG without transparency.
    public static let invalidImage = Self(rawValue: 4_000_161)
    /// A message's header is longer than 66 characters.
    public static let headerTooLong = Self(rawValue: 4_000_162)
    /// A message's body is longer than 144 characters.
    public static let bodyTooLong = Self(rawValue: 4_000_163)
    /// The locale is not one Apple knows.
    public static let invalidLocale = Self(rawValue: 4_000_164)
    /// An image's alternative text is longer than 150 characters.
    public static let altTextTooLong = Self(rawValue: 4_000_175)
    /// The performance test request is invalid.
    public static let invalidPerformanceTestRequest = Self(rawValue: 4_000_211)
    /// The performance test's request id is invalid.
    public static let invalidRequestId = Self(rawValue: 4_000_212)
    /// A performance test is already running.
    public static let existingPerformanceTestRun = Self(rawValue: 4_000_213)
    /// The realtime URL is not an https URL of at most 256 characters.
    public static let badRequestRealtimeUrl = Self(rawValue: 4_000_215)
    /// An image is neither full size nor bullet-point size, or not the size its use needs.
    public static let badRequestImageSize = Self(rawValue: 4_000_216)
    /// A message has more than five bullet points.
    public static let badRequestTooManyBulletPoints = Self(rawValue: 4_000_218)
    /// A bullet point's text is longer than 66 characters.
    public static let badRequestBulletPointTextTooLong = Self(rawValue: 4_000_219)
    /// `headerPosition` is `ABOVE_IMAGE` in a message without an image.
    public static let badRequestAboveImageRequiresAnImage = Self(rawValue: 4_000_224)
    /// The app has its 2,000 images already.
    public static let maximumNumberOfImagesReached = Self(rawValue: 4_030_014)
    /// The app has its 2,000 messages already.
    public static let maximumNumberOfMessagesReached = Self(rawValue: 4_030_016)
    /// A default message must be approved.
    public static let messageNotApproved = Self(rawValue: 4_030_017)
    /// A default message's image must be approved.
    public static let imageNotApproved = Self(rawValue: 4_030_018)
    /// The image is part of a message and cannot be deleted.
    public static let imageInUse = Self(rawValue: 4_030_019)
    /// A production realtime URL needs a passing performance test first.
    public static let forbiddenNoPassingTest = Self(rawValue: 4_030_026)
    public static let imageNotFound = Self(rawValue: 4_040_014)
    public static let messageNotFound = Self(rawValue: 4_040_015)
    public static let performanceTestRunNotFound = Self(rawValue: 4_040_018)
    public static let defaultMessageNotFound = Self(rawValue: 4_040_020)
    public static let realtimeUrlNotFound = Self(rawValue: 4_040_021)
    public static let imageAlreadyExists = Self(rawValue: 4_090_000)
    public static let messageAlreadyExists = Self(rawValue: 4_090_001)

    // 429
    /// The hourly rate limit was exceeded.
    public static let rateLimitExceeded = Self(rawValue: 4_290_000)

    // 500
    /// A general internal error.
    public static let generalInternal = Self(rawValue: 5_000_000)
    /// A general internal error; retry later.
    public static let generalInternalRetryable = Self(rawValue: 5_000_001)
}

/// What one App Store Server API HTTP answer means: a body to return, or a typed failure with the
/// retry disposition Apple's documentation implies. Pure, so every status path is testable alone.
enum ServerAPIDecision: Sendable, Equatable {
    /// A 2xx answer's body.
    case success(Data)
    /// A failure and whether another attempt may help.
    case failure(AppStoreServerAPIError, RetryDisposition)

    /// Apple's error body.
    private struct ErrorBody: Decodable {
        let errorCode: Int
        let errorMessage: String?
    }

    /// Classifies `response`; `now` turns an HTTP-date `Retry-After` into a delay.
    init(response: AppStoreHTTPResponse, now: Date) {
        let retryAfter = response.header("Retry-After").flatMap { RetryAfter.delay(from: $0, now: now) }
        let transient: RetryDisposition = retryAfter.map { .transientAfter($0) } ?? .transient
        switch response.status {
        case 200..<300:
            self = .success(response.body)
        case 401:
            self = .failure(.unauthorized, .permanent)
        case 429:
            self = .failure(.rateLimited(retryAfter: retryAfter), transient)
        default:
            if let error = try? JSONDecoder().decode(ErrorBody.self, from: response.body) {
                let code = APIErrorCode(rawValue: error.errorCode)
                self = .failure(
                    .api(status: response.status, code: code, message: error.errorMessage ?? ""),
                    code.isRetryable ? transient : .permanent)
            } else {
                let excerpt = String(decoding: response.body.prefix(200), as: UTF8.self)
                self = .failure(
                    .unexpectedResponse(status: response.status, bodyExcerpt: excerpt),
                    response.status >= 500 ? transient : .permanent)
            }
        }
    }
}
