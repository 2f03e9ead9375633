/// The result of one upload attempt of one journal entry.
enum UploadOutcome: Sendable, Equatable {
    /// The server acknowledged; the subscriber is its answer judged on arrival.
    case delivered(Subscriber)
    /// The attempt failed; the entry waits for its backoff.
    case failed(ServerError)
    /// The transaction had been delivered before; no upload was made.
    case alreadyDelivered
}
