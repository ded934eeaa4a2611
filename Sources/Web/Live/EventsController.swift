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
        let since = (context.request.headers["last-event-id"] ?? context.request.query["since"]).flatMap { Int64($0) }
        let stream: ResponseStream
        do {
            stream = try live.open(for: member, since: since)
        } catch is LiveEvents.TooManyStreams {
            // The page works on without live updates; EventSource does not retry a refusal.
            var response = Response(status: 503, contentType: "text/plain; charset=utf-8", text: "Too many open live-update streams.\n")
            response.setHeader("Retry-After", "60")
            return response
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
