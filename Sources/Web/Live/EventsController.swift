import HTTPServer
import Inventory

/// `GET /events`: the signed-in member's event stream of their household's changes (see
/// `LiveEvents`). A reconnect names the last event it saw (`Last-Event-ID`), a page the sequence
/// it was rendered at (`?since=`); either gets what it missed.
struct EventsController {
    let live: LiveEvents

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.events, .signedIn, use: events)
    }

    func events(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let since = Self.since(context.request)
        guard let response = try Self.stream(live, for: LiveEvents.Reader(member), since: since) else {
            // The page works on without live updates; EventSource does not retry a refusal.
            var response = Response(status: 503, contentType: "text/plain; charset=utf-8", text: "Too many open live-update streams.\n")
            response.setHeader("Retry-After", "60")
            return response
        }
        return response
    }

    /// Where a stream starts: the last event a reconnect saw (`Last-Event-ID`), else `?since=`.
    static func since(_ request: Request) -> Int64? {
        (request.headers["last-event-id"] ?? request.query["since"]).flatMap { Int64($0) }
    }

    /// The answer that holds a new stream open for `reader`; nil when the server holds as many
    /// streams as it keeps room for.
    static func stream(_ live: LiveEvents, for reader: LiveEvents.Reader, since: Int64?) throws -> Response? {
        let stream: ResponseStream
        do {
            stream = try live.open(for: reader, since: since)
        } catch is LiveEvents.TooManyStreams {
            return nil
        }
        return Response(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                // A reverse proxy (nginx) must pass each event on as it comes.
                ("X-Accel-Buffering", "no"),
            ],
            body: .stream(stream))
    }
}
