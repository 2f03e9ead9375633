import Foundation

extension Duration {
    /// "1.25 s": how the maintenance commands say how long they took.
    var inSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return "\(String(format: "%.2f", seconds)) s"
    }
}
