import ArgumentParser

/// A port option's value. As a plain `Int`, `--port 99999` was taken modulo 65,536 by the socket:
/// the server logged port 99999 and listened on 34463. ArgumentParser refuses a value outside
/// 0–65535 with the option's name instead.
struct TCPPort: ExpressibleByArgument, Equatable, CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = Int(argument), (0...65_535).contains(value) else { return nil }
        self.value = value
    }

    var description: String { "\(value)" }
    var defaultValueDescription: String { description }
}
