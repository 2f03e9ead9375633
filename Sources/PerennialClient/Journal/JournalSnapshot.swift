/// What the journal writes down: its entries and the keys it delivered recently.
///
/// In-flight uploads are not part of it on purpose: after a crash every entry that was being
/// uploaded is simply pending again and is uploaded once more.
struct JournalSnapshot: Codable, Sendable, Equatable {
    var entries: [PendingTransaction] = []
    /// Keys delivered and finished recently, oldest first, so a store that hands a transaction over
    /// once more (a poll racing a finish) does not cause a second upload.
    var delivered: [String] = []
}
