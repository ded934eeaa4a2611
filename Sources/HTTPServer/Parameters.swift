import Foundation

/// Name/value pairs in arrival order, where a name may repeat (query strings, form fields, headers).
public struct Parameters: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func all(_ name: String) -> [String] {
        pairs.compactMap { $0.name == name ? $0.value : nil }
    }

    public mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Request headers; names are compared case-insensitively (stored lowercased).
public struct Headers: Sendable {
    private var storage = Parameters()

    public init(_ pairs: [(String, String)] = []) {
        for (name, value) in pairs { append(name, value) }
    }

    public subscript(name: String) -> String? {
        storage.pairs.first { Response.sameName($0.name, name) }?.value
    }

    public mutating func append(_ name: String, _ value: String) {
        storage.append(name.lowercased(), value)
    }

    /// A header as libmicrohttpd hands it over: the name lowercased (ASCII) while it is copied.
    mutating func append(cName: UnsafePointer<CChar>, cValue: UnsafePointer<CChar>?) {
        let length = strlen(cName)
        let name = String(unsafeUninitializedCapacity: length) { buffer in
            for i in 0..<length {
                let byte = UInt8(bitPattern: cName[i])
                buffer[i] = (0x41...0x5a).contains(byte) ? byte | 0x20 : byte
            }
            return length
        }
        storage.append(name, cValue.map { String(cString: $0) } ?? "")
    }

    public var pairs: [(name: String, value: String)] { storage.pairs }
}
