import Foundation

extension Duration {
    /// "1.25 s": how the maintenance commands say how long they took.
    var inSeconds: String {
        "\(String(format: "%.2f", seconds)) s"
    }

    /// The duration in seconds, fractions included.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
