public import Foundation

/// `POST /v1/subscribers/{appUserId}/experiments/{experimentId}/exposures`: the user's first
/// exposure as the server keeps it, the same whichever report it was, so a retry is harmless.
public struct ExposureResponse: Codable, Equatable, Sendable {
    public var experiment: String
    public var variant: String
    public var firstExposedAt: Date

    public init(experiment: String, variant: String, firstExposedAt: Date) {
        self.experiment = experiment
        self.variant = variant
        self.firstExposedAt = firstExposedAt
    }
}
