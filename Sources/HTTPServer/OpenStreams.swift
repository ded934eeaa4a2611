import Synchronization

/// The streamed answers a server is sending, so a stop can end them all.
final class OpenStreams: Sendable {
    private let open = Mutex<[ObjectIdentifier: ResponseStream]>([:])

    var count: Int { open.withLock { $0.count } }

    func opened(_ stream: ResponseStream) {
        open.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func closed(_ stream: ResponseStream) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    func endAll() {
        for stream in open.withLock({ Array($0.values) }) { stream.end() }
    }
}

/// A stream as libmicrohttpd holds it, from the response's creation until it lets it go.
final class SendingStream: Sendable {
    let stream: ResponseStream
    let streams: OpenStreams

    init(_ stream: ResponseStream, _ streams: OpenStreams) {
        self.stream = stream
        self.streams = streams
    }

    func release() {
        streams.closed(stream)
        stream.released()
    }
}
