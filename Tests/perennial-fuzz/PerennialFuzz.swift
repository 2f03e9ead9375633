import Foundation
import PerennialFuzzTargets

/// `perennial-fuzz <target> <file>…` replays inputs through one fuzz target and prints each
/// verdict: how a crash's input (the fuzz suite's `<target>.last`, a libFuzzer artifact) is
/// replayed, under a debugger if need be. Built by `Scripts/fuzz` with `-sanitize=fuzzer
/// -DLIBFUZZER`, `perennial-fuzz <target> [libFuzzer options] [corpus folders]` is libFuzzer's
/// driver instead: coverage-guided, it keeps the inputs that reach new code.
/// `perennial-fuzz --dictionary` prints ``FuzzDictionary`` for libFuzzer's `-dict`.
@main
struct PerennialFuzz {
    /// The fuzz suite's corpus, which holds the roots the targets trust.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PerennialServerTests/FuzzCorpus")

    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.dropFirst().first == "--dictionary" {
            print(FuzzDictionary.libFuzzerFormat, terminator: "")
            exit(0)
        }
        let targets = try FuzzTargets.all(FuzzSetup(corpus: corpus))
        guard arguments.count > 1, let target = targets.first(where: { $0.name == arguments[1] }) else {
            print("usage: perennial-fuzz <target> <input file>…\ntargets: \(targets.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        #if LIBFUZZER
        fuzzed = target
        // libFuzzer reads its own options and corpus folders; the target's name is not one.
        let options = [arguments[0]] + arguments.dropFirst(2)
        var argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: options.count + 1)
        for (index, option) in options.enumerated() { argv[index] = strdup(option) }
        argv[options.count] = nil
        var argc = Int32(options.count)
        exit(runFuzzerDriver(&argc, &argv, fuzzOne))
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

/// libFuzzer's callback: an error that is not the parser's is a finding, made a crash so that
/// libFuzzer keeps the input. Exported under libFuzzer's name, which its own `main` (linked,
/// though SwiftPM's entry point is the one that runs) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    if case .unexpected(let error) = PerennialFuzz.verdict(of: fuzzed!, on: input) { fatalError("\(fuzzed!.name): \(error)") }
    return 0
}

/// libFuzzer's entry point for a program with its own `main` (SwiftPM names the executable's
/// entry point itself, so libFuzzer's `main` cannot be used).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
