/// A field Apple sends either as an array or as a single object: `latest_receipt_info` is an array
/// for app receipts and a single object for iOS 6-style transaction receipts.
///
/// The form is kept so that re-encoding writes what Apple sent.
public enum OneOrMany<Element: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    case one(Element)
    case many([Element])

    /// The elements, whichever form they came in.
    public var elements: [Element] {
        switch self {
        case .one(let element): [element]
        case .many(let elements): elements
        }
    }

    public init(from decoder: any Decoder) throws {
        // Probe the shape first so that a malformed element of an array reports its own error
        // instead of a misleading "expected an object".
        if var array = try? decoder.unkeyedContainer() {
            var elements: [Element] = []
            while !array.isAtEnd {
                elements.append(try array.decode(Element.self))
            }
            self = .many(elements)
        } else {
            self = .one(try Element(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .one(let element): try element.encode(to: encoder)
        case .many(let elements): try elements.encode(to: encoder)
        }
    }
}
