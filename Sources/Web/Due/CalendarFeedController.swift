import Foundation
import HTTPServer
import Inventory

/// The calendar feed phones subscribe to (making and ending one is on the account page).
struct CalendarFeedController {
    let feeds: CalendarFeeds
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.calendarFeed("{token}"), .open, use: feed)
    }

    /// The member's due dates as iCalendar. The token is the authentication: an unknown or
    /// replaced one is simply not found.
    func feed(_ context: RequestContext) throws -> Response {
        guard let feed = try feeds.feed(token: context.parameter("token") ?? "") else { throw InventoryError.notFound }
        var response = Response(
            status: 200, contentType: "text/calendar; charset=utf-8",
            text: ICalendar.document(
                feed, now: clock.now(), t: feed.language.flatMap { Localizations.embedded.catalogs[$0] } ?? context.locale))
        response.headers.append(("Content-Disposition", "inline; filename=\"zaiko.ics\""))
        // Calendar apps poll; the household's data must still never sit in a shared cache.
        response.headers.append(("Cache-Control", "private, no-cache"))
        return response
    }
}
