import Foundation

/// Why a push message did not go out, as stored in the outbox and shown to the owner. Only the
/// endpoint's HTTP status or a short reason is kept: never the answer's body (an owner could
/// otherwise read what a local service says), never the system's error text.
public enum PushFailure: Sendable, Equatable {
    /// The endpoint answered with this status (not 2xx).
    case status(Int)
    case timedOut
    /// The address is local or private and the operator does not allow such targets.
    case refusedAddress
    /// The name does not resolve.
    case unknownHost
    /// No connection, or it broke (refused, reset, TLS failure).
    case connectionFailed
    case answerTooLarge
    case invalidAddress
    case noChannel

    /// The text in `push_message.last_error`.
    public var stored: String {
        switch self {
        case .status(let code): return "HTTP \(code)"
        case .timedOut: return "timed_out"
        case .refusedAddress: return "refused_address"
        case .unknownHost: return "unknown_host"
        case .connectionFailed: return "connection_failed"
        case .answerTooLarge: return "answer_too_large"
        case .invalidAddress: return "invalid_address"
        case .noChannel: return "no_channel"
        }
    }

    /// Reads a stored reason. Rows written before this type held free text ("HTTP 500: <body>",
    /// the system's words): only a leading status survives, the rest reads as a failed connection.
    public init(stored: String) {
        if stored.hasPrefix("HTTP "), let code = Int(stored.dropFirst(5).prefix(3)), (100...599).contains(code) {
            self = .status(code)
            return
        }
        let known: [PushFailure] = [.timedOut, .refusedAddress, .unknownHost, .connectionFailed, .answerTooLarge, .invalidAddress, .noChannel]
        self = known.first { $0.stored == stored } ?? .connectionFailed
    }
}
