public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process of a test, with the part of `Foundation.Process` the tests use, started with
/// glibc's `posix_spawn` and `posix_spawn_file_actions_addclosefrom_np`.
///
/// `Foundation.Process.run()` on Linux finds the highest open descriptor by reading
/// `/proc/self/fd` and copying each entry's whole 256-byte `d_name`, past the end of the entry:
/// when the test process holds a thousand descriptors (many servers and clients run in parallel),
/// that copy can run off the end of glibc's directory buffer, and the whole test process dies of
/// SIGSEGV inside `Process.run()`. Closing every descriptor above stderr in the child is one file
/// action here, with no listing.
public final class ChildProcess: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: the configuration is set before `run()`, by one
    // task; `pid` and `status` are only touched under `lock` afterwards.
    public var executableURL: URL?
    public var arguments: [String] = []
    /// Nil: the test process's own environment.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `Pipe` (its write end becomes the child's), a `FileHandle`, or nil for /dev/null.
    public var standardOutput: Any?
    public var standardError: Any?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?
    private var signaled = false

    /// How the child ended, as `Foundation.Process.TerminationReason` says it.
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public var terminationReason: TerminationReason { lock.withLock { signaled ? .uncaughtSignal : .exit } }

    public init() {}

    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// The exit status, or the signal that ended it (as `Foundation.Process` reports them).
    public var terminationStatus: Int32 { lock.withLock { status ?? -1 } }

    /// Whether the child still runs; reaps it once it has ended.
    public var isRunning: Bool {
        lock.withLock {
            guard status == nil, pid > 0 else { return false }
            var raw: Int32 = 0
            switch waitpid(pid, &raw, WNOHANG) {
            case 0: return true
            case pid: record(raw)
            default: break  // reaped by a `waitUntilExit()` on another thread, which records it
            }
            return false
        }
    }

    /// Blocks the calling thread until the child ends.
    public func waitUntilExit() {
        let child = lock.withLock { status == nil ? pid : 0 }
        guard child > 0 else { return }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
        lock.withLock { if status == nil { record(raw) } }
    }

    public func terminate() { _ = kill(processIdentifier, SIGTERM) }

    public func interrupt() { _ = kill(processIdentifier, SIGINT) }

    public func run() throws {
        guard let executable = executableURL?.path else { throw Failure("no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        posix_spawn_file_actions_adddup2(&actions, devNull, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, Self.descriptor(of: standardOutput) ?? devNull, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, Self.descriptor(of: standardError) ?? devNull, STDERR_FILENO)
        guard let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 else { throw Failure("posix_spawn_file_actions_addclosefrom_np") }
        if let directory = currentDirectoryURL?.path {
            guard let changeDirectory = Self.addChangeDirectory, changeDirectory(&actions, directory) == 0 else {
                throw Failure("posix_spawn_file_actions_addchdir_np")
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, variables)
        guard result == 0 else { throw Failure("posix_spawn \(executable): \(String(cString: strerror(result)))") }
        lock.withLock { pid = child }
        // The parent keeps only the read ends: the child holds the write ends, and EOF comes when it ends.
        for handle in [standardOutput, standardError] {
            if let pipe = handle as? Pipe { try? pipe.fileHandleForWriting.close() }
        }
    }

    /// Waits for the child without blocking a thread: Swift's cooperative pool has one thread per
    /// core (two here), and a test parked in `waitUntilExit()` starves every other test beside it.
    /// After `timeout` the child is killed and the answer is false.
    public func exited(within timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= deadline {
                _ = kill(processIdentifier, SIGKILL)
                while isRunning { try? await Task.sleep(for: .milliseconds(20)) }
                return false
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = "cannot start the child process: \(description)" }
    }

    private static func descriptor(of output: Any?) -> Int32? {
        switch output {
        case let pipe as Pipe: pipe.fileHandleForWriting.fileDescriptor
        // `FileHandle.nullDevice` has no descriptor of its own (-1): /dev/null, as for nil.
        case let handle as FileHandle where handle.fileDescriptor >= 0: handle.fileDescriptor
        default: nil
        }
    }

    /// Called with the lock held.
    private func record(_ raw: Int32) {
        let signal = raw & 0x7f
        signaled = signal != 0
        status = signaled ? signal : (raw >> 8) & 0xff
    }

    // glibc's `_np` file actions (2.34 and 2.29), which its headers declare only for `_GNU_SOURCE`.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let addChangeDirectory: AddChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let found = dlsym(handle, name) else { return nil }
        return unsafeBitCast(found, to: T.self)
    }
}
