/// Why ``SQLiteStorage/backup(to:pagesPerStep:progress:)`` made no copy; whatever the case, no file is left at
/// the destination and the database is untouched.
public enum SQLiteBackupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file is already where the copy would go. A backup never overwrites: the file may be the
    /// last good backup, or the database itself.
    case destinationExists(path: String)
    /// The copy could not be made (the directory is missing or not writable, the disk is full…).
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .destinationExists(let path): "\(path) already exists: a backup never overwrites a file (choose a new name)"
        case .failed(let path, let reason): "cannot back up to \(path): \(reason)"
        }
    }
}
