import Foundation
import PerennialFuzzTargets

/// `perennial-fuzz <target> <file>…` replays inputs through one fuzz target and prints each
/// verdict: how a crash's input (the fuzz suite's `<target>.last`, a libFuzzer artifact) is
/// replayed, under a debugger if need be. Built by `Scripts/fuzz` with `-sanitize=fuzzer
/// -DLIBFUZZER`, `perennial-fuzz <target> [libFuzzer options] [corpus folders]` is libFuzzer's
/// driver instead: coverage-guided, it keeps the inputs that reach new code.
@main
struct PerennialFuzz {
    /// The fuzz suite's corpus, which holds the roots the targets trust.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PerennialServerTests/FuzzCorpus")

    static func main() throws {
        let arguments = CommandLine.arguments
        let targets = try FuzzTargets.all(FuzzSetup(corpus: corpus))
        guard arguments.count > 1, let target = targets.first(where: { $0.name == arguments[1] }) else {
            print("usage: perennial-fuzz <target> <input file>…\ntargets: \(targets.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        #if LIBFUZZER
        fuzzed = target
        // libFuzzer reads its own options and corpus folders; the target's name is not one.
        var argv = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) }
        var argc = Int32(argv.count)
        argv.append(nil)
        let status = argv.withUnsafeMutableBufferPointer { buffer in
            var pointer = buffer.baseAddress!
            return runFuzzerDriver(&argc, &pointer) { data, size in
                let input = data.map { Data(bytes: $0, count: size) } ?? Data()
                // An error that is not the parser's is a finding: libFuzzer keeps the input of a crash.
                if case .unexpected(let error) = verdict(of: fuzzed!, on: input) { fatalError("\(fuzzed!.name): \(error)") }
                return 0
            }
        }
        exit(status)
        #else
        var unexpected = false
        for path in arguments.dropFirst(2) {
            let verdict = verdict(of: target, on: try Data(contentsOf: URL(fileURLWithPath: path)))
            print("\(path): \(verdict)")
            if case .unexpected = verdict { unexpected = true }
        }
        exit(unexpected ? 1 : 0)
        #endif
    }

    /// `target`'s verdict on `input`, waited for: libFuzzer calls back synchronously.
    static func verdict(of target: FuzzTarget, on input: Data) -> FuzzVerdict {
        let done = DispatchSemaphore(value: 0)
        let answer = Answer()
        Task.detached {
            answer.verdict = await target.run(input)
            done.signal()
        }
        done.wait()
        return answer.verdict!
    }

    /// Carries the verdict out of its task; the semaphore orders the write before the read.
    private final class Answer: @unchecked Sendable {
        var verdict: FuzzVerdict?
    }
}

#if LIBFUZZER
/// The target libFuzzer's callback runs, set once before the driver starts.
nonisolated(unsafe) private var fuzzed: FuzzTarget?

/// libFuzzer's entry point for a program with its own `main` (SwiftPM names the executable's
/// entry point itself, so libFuzzer's `main` cannot be used).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
