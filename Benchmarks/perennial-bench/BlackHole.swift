/// Keeps the optimizer from discarding a benchmarked result.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
