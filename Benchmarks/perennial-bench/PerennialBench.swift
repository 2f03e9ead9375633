@main
struct PerennialBench {
    static func main() async throws {
        print("no benchmarks yet")
    }
}
