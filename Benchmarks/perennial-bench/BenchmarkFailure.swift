/// A suite's setup or a measured operation did not do what it measures (a signature that does not
/// verify, an apply that did not apply): the figures would be of something else, so the run stops.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
