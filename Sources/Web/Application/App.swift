import Backups
import Exchange
import Foundation
import HTTPServer
import Inventory
import Logging
import Outbound
import RecipeImport
import Synchronization

/// Where the app finds its public files (templates and texts are compiled into the binary).
public struct Resources: Sendable {
    public let publicFiles: URL
    /// The public files read already (hashed, and compressed where that pays), for every app made
    /// with these resources; nil: each app reads them when it is made (a server makes one app).
    let loadedFiles: StaticFiles?

    public init(root: URL) {
        publicFiles = root.appendingPathComponent("Public")
        loadedFiles = nil
    }

    /// These resources with the public files read now, once for every app made with them (tests
    /// make an app per test, hundreds over the same files).
    public func loaded() throws -> Resources {
        Resources(publicFiles: publicFiles, loadedFiles: try StaticFiles(root: publicFiles))
    }

    private init(publicFiles: URL, loadedFiles: StaticFiles?) {
        self.publicFiles = publicFiles
        self.loadedFiles = loadedFiles
    }

    /// A root that holds `Public/`.
    public var isComplete: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: publicFiles.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// Settings of the running app that are not in the database.
public struct AppOptions: Sendable {
    /// Mark cookies `Secure` (the server is reached through HTTPS).
    public var secureCookies: Bool
    /// The one-time code the first-run setup asks for; nil once a household exists.
    public var setupCode: String?
    public var hasher: any PasswordHashing
    public var clock: WallClock
    /// How long "Send a test" waits for the reminder engine's first attempt before answering
    /// (zero when no engine runs, as in tests of the web layer alone).
    public var pushTestWait: Duration
    /// Where photos are kept (`<data>/photos`); a new temporary folder when not given (tests).
    public var photos: URL
    /// How requests leave Zaiko (the online barcode look-up); local and private addresses are
    /// refused unless the operator allows them (`--allow-private-outbound`).
    public var outbound: any OutboundSending = OutboundHTTP()
    /// How requests a member sets off (a recipe import) leave Zaiko: to the home network only where
    /// the household's owner allows it, and the operator too (see `MemberFetches`).
    public var memberFetches = MemberFetches(operatorAllowsPrivate: false)
    /// How much waiting CSV previews and recipe drafts may hold in memory.
    var pendingLimits = PendingStoreLimits.standard
    /// The server's body limit, so a form can say "too large" before sending (`--max-body-mb`).
    public var maxBodyBytes = 20 * 1024 * 1024
    /// The local CA and the HTTPS addresses the /tls page hands out; nil when HTTPS is not set up.
    public var tls: TLSPageSource?
    /// The server's automatic backups, for Settings' "Back up now" and download; nil when none are made.
    public var backups: (any BackupControl)?
    /// The host names this server answers to (`zaiko serve` gives its own names, addresses and
    /// `--public-name`s); nil answers any (tests of the web layer alone).
    public var hosts: HostAllowlist?
    /// How long a recipe import may wait for one request, and for the whole import.
    public var recipeFetch: (timeout: TimeInterval, budget: Duration) = (RecipeFetcher.standardTimeout, RecipeFetcher.standardBudget)
    /// The languages offered: the catalogs built in (a test may add one).
    public var localizations = Localizations.embedded
    /// How many live-update streams are kept open, and their heartbeat.
    public var liveEvents = LiveEventLimits()

    public init(
        secureCookies: Bool = false, setupCode: String? = nil, hasher: any PasswordHashing = Argon2id.standard, clock: WallClock = .system,
        photos: URL? = nil, pushTestWait: Duration = .zero
    ) {
        self.secureCookies = secureCookies
        self.setupCode = setupCode
        self.hasher = hasher
        self.clock = clock
        self.pushTestWait = pushTestWait
        self.photos = photos ?? FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-photos-\(UUID().uuidString)")
    }
}

/// The application: routes every request through session, access and CSRF checks to its
/// controller, renders pages, logs one line per request.
public final class App: Responder {
    public let database: AppDatabase
    public let renderer: Renderer
    public let router: Router<Endpoint>
    let accounts: Accounts
    let cookies: SessionCookies
    let logger: Logger
    /// Photos on disk: `zaiko serve` clears what a crash left before it listens.
    public let photos: PhotoStore
    /// Where every uploaded image is decoded, one at a time.
    let decoding: DecodingLane
    /// Imported recipes waiting for the recipe editor (`/recipes/new?draft=`), which takes them from here.
    public let recipeDrafts: PendingRecipeDrafts
    /// The methods of routes that take uploads (POST): only these need routing before the body.
    let uploadMethods: [String]
    /// Cached once true: households are never all removed while the server runs.
    let householdExists: Atomic<Bool>
    let hosts: HostAllowlist?
    /// The open live-update streams.
    let live: LiveEvents
    /// The API's operations (`/api/v1`), which also word its answers for paths it has not.
    let api: APIRoutes

    public init(database: AppDatabase, resources: Resources, logger: Logger, options: AppOptions = AppOptions()) async throws {
        self.database = database
        self.logger = logger
        self.hosts = options.hosts
        let staticFiles = try resources.loadedFiles ?? StaticFiles(root: resources.publicFiles)
        let renderer = Renderer(localizations: options.localizations, staticFiles: staticFiles)
        self.renderer = renderer
        let accounts = Accounts(database: database, hasher: options.hasher, clock: options.clock)
        self.accounts = accounts
        self.cookies = SessionCookies(secure: options.secureCookies)
        let exists = try accounts.hasHousehold()
        householdExists = Atomic(exists)

        var router = Router<Endpoint>()
        SystemController(database: database, renderer: renderer, staticFiles: staticFiles, logger: logger)
            .register(in: &router)
        let setup = SetupController(accounts: accounts, renderer: renderer, cookies: cookies, setupCode: exists ? nil : options.setupCode)
        setup.register(in: &router)
        let caFile = options.tls.map { CACertificateFile(url: $0.certificate) }
        let httpsHelp = HTTPSHelp(file: caFile)
        TLSController(file: caFile, source: options.tls, renderer: renderer).register(in: &router)
        SessionController(accounts: accounts, renderer: renderer, cookies: cookies, clock: options.clock, httpsHelp: httpsHelp).register(in: &router)
        InvitationController(accounts: accounts, renderer: renderer, cookies: cookies).register(in: &router)
        let live = LiveEvents(feed: ChangeFeed(database: database), accounts: accounts, limits: options.liveEvents)
        self.live = live
        EventsController(live: live).register(in: &router)
        // The scheme of links shown for copying, over plain HTTP (over HTTPS they say https).
        let scheme = options.secureCookies ? "https" : "http"
        let feeds = CalendarFeeds(database: database, clock: options.clock)
        AccountController(accounts: accounts, renderer: renderer, cookies: cookies, feeds: feeds, scheme: scheme, httpsHelp: httpsHelp).register(in: &router)
        CalendarFeedController(feeds: feeds, clock: options.clock).register(in: &router)
        let settings = HouseholdSettings(database: database)
        let keepRules = KeepRules(database: database, clock: options.clock)
        SettingsController(
            accounts: accounts, settings: settings, keepRules: keepRules, renderer: renderer, scheme: scheme,
            push: PushChannels(database: database, clock: options.clock), outbox: Outbox(database: database, clock: options.clock),
            schedule: ReminderSchedule(database: database, clock: options.clock),
            pushTestWait: options.pushTestWait, backupControl: options.backups, operatorAllowsPrivate: options.memberFetches.operatorAllowsPrivate
        ).register(in: &router)
        let items = Items(database: database, clock: options.clock)
        OfflineController(staticFiles: staticFiles, items: items, renderer: renderer).register(in: &router)
        let photoStore = try PhotoStore(directory: options.photos, database: database, clock: options.clock)
        self.photos = photoStore
        decoding = DecodingLane()
        let pictures = PictureUploads(store: photoStore, logger: logger, decoding: decoding)
        let products = Products(database: database, clock: options.clock)
        PhotoController(store: photoStore).register(in: &router)
        BackupController(control: options.backups, status: BackupStatusStore(database: database)).register(in: &router)
        ExportController(export: HouseholdExport(database: database, photos: photoStore, clock: options.clock), settings: settings, clock: options.clock)
            .register(in: &router)
        ProductsController(products: products, items: items, pictures: pictures, renderer: renderer).register(in: &router)
        FoldersController(
            folders: Folders(database: database, clock: options.clock), items: items, settings: settings, keepRules: keepRules, renderer: renderer,
            clock: options.clock
        ).register(in: &router)
        // A list's rows as the page renders them, for the answers that swap one in place.
        let rows = RowFragment(items: items, settings: settings, clock: options.clock, urls: renderer.staticURLs)
        ListController(items: items, settings: settings, renderer: renderer, clock: options.clock, rows: rows).register(in: &router)
        BoughtController(items: items, renderer: renderer, rows: rows).register(in: &router)
        let itemsController = ItemsController(
            items: items, settings: settings, products: products, keepRules: keepRules, pictures: pictures,
            lookup: ProductLookup(client: options.outbound), renderer: renderer, clock: options.clock, maxBodyBytes: options.maxBodyBytes,
            logger: logger, cookUndo: CookUndoInHistory(cooking: Cooking(database: database, clock: options.clock)))
        itemsController.register(in: &router)
        KeepController(keepRules: keepRules, itemPages: itemsController).register(in: &router)
        let recipes = Recipes(database: database, clock: options.clock)
        let recipeTrash = RecipeTrash(recipes: recipes, renderer: renderer)
        recipeTrash.register(in: &router)
        TrashController(
            items: items, renderer: renderer, rows: rows, recipes: recipeTrash
        ).register(in: &router)
        DueController(items: items, plan: MealPlan(database: database, clock: options.clock), renderer: renderer, clock: options.clock).register(
            in: &router)
        HouseholdController(habits: HouseholdHabits(database: database), renderer: renderer, clock: options.clock).register(in: &router)
        CSVImportController(items: items, renderer: renderer, pending: PendingImports(clock: options.clock, limits: options.pendingLimits)).register(
            in: &router)
        recipeDrafts = RecipeImportController(
            fetches: options.memberFetches, settings: settings, fetchLimits: options.recipeFetch, pictures: pictures,
            drafts: PendingRecipeDrafts(clock: options.clock, limits: options.pendingLimits), renderer: renderer,
            logger: logger
        ).register(in: &router)
        let drafts = recipeDrafts
        RecipeEditorController(
            recipes: recipes, items: items, pictures: pictures, renderer: renderer, maxBodyBytes: options.maxBodyBytes,
            drafts: { token, member in drafts.take(token, for: member) }
        ).register(in: &router)
        let cooking = Cooking(database: database, clock: options.clock)
        let mealPlan = MealPlan(database: database, clock: options.clock)
        CookController(cooking: cooking, plan: mealPlan, settings: settings, renderer: renderer, clock: options.clock).register(in: &router)
        PlanController(
            plan: mealPlan, recipes: recipes, cooking: cooking, settings: settings, folders: items,
            renderer: renderer, clock: options.clock
        ).register(in: &router)
        RecipePagesController(
            recipes: recipes, renderer: renderer, clock: options.clock
        )
        .register(in: &router)
        let api = APIRoutes(
            accounts: accounts, idempotency: IdempotentRequests(database: database, clock: options.clock), localizations: options.localizations,
            clock: options.clock, live: live, logger: logger)
        try HouseholdAPI(
            items: items, feed: ChangeFeed(database: database), keepRules: keepRules, products: products, recipes: recipes, cooking: cooking,
            mealPlan: mealPlan, settings: settings, clock: options.clock
        ).registerHandlers(
            on: api, serverURL: URL(string: Route.API.v1)!,
            // Compact JSON in the order it is built (the runtime's default sorts and indents), dates by `Timestamp`.
            configuration: .init(dateTranscoder: TimestampTranscoder(), jsonEncodingOptions: []))
        api.register(in: &router)
        self.api = api
        MCPEndpoint(routes: api).register(in: &router)
        APIDocumentController(renderer: renderer).register(in: &router)
        self.router = router
        uploadMethods = Array(Set(router.routes.filter { $0.handler.takesUploads }.map(\.method)))
    }

    /// Largest body of a request to a route that takes no files, or from anyone who may not upload:
    /// every form of the site without a photo is far below it.
    public static let formBodyLimit = 64 * 1024

    /// Before any body is read: only routes that take files, for a session allowed to use them,
    /// may send more than a form's worth. Anyone else without that right is answered at once
    /// (sign in, 403) exactly as `serve` would, with the upload left unread.
    public func admit(_ head: Request) -> Admission {
        if let misdirected = misdirected(head) { return .answer(finish(misdirected, for: head)) }
        // Most requests (every GET) use a method no upload route has: no routing needed here.
        guard uploadMethods.contains(head.method) else { return .read(BodyLimit(maxBytes: Self.formBodyLimit, allowsFiles: false)) }
        var route = RoutedRequest(router.resolve(method: head.method, path: head.path))
        guard case .found(let endpoint, _) = route.match, endpoint.takesUploads else {
            return .read(BodyLimit(maxBytes: Self.formBodyLimit, allowsFiles: false), note: route)
        }
        var head = head
        head.routePattern = route.pattern
        // As in `serve`: a session that cannot be read (a failing disk) is an error, not a sign-out.
        do {
            route.session = .read(try readSession(head))
        } catch {
            return .answer(finish(failure(error, head, member: nil), for: head))
        }
        let member = route.session.member
        let context = RequestContext(request: head, locale: locale(for: head, member: member), member: member, csrfToken: member?.csrfToken ?? "")
        if let refusal = refusal(endpoint.access, context) { return .answer(finish(refusal, for: head)) }
        return .read(.serverLimits, note: route)
    }

    /// Static files: read from memory, no page to render and no database.
    public func answersInline(_ request: Request) -> Bool {
        (request.method == "GET" || request.method == "HEAD") && request.path.hasPrefix(SystemController.staticPrefix)
    }

    public func respond(to request: Request) -> Response {
        if let misdirected = misdirected(request) { return finish(misdirected, for: request) }
        var response: Response
        var request = request
        let route = request.admissionNote as? RoutedRequest ?? RoutedRequest(router.resolve(method: request.method, path: request.path))
        request.routePattern = route.pattern
        switch route.match {
        case .found(let endpoint, let parameters):
            request.pathParameters = parameters
            response = serve(request, endpoint, session: route.session)
        case .methodNotAllowed(let allowed) where api.serves(request):
            response = api.methodNotAllowed(request, allowed: allowed)
        case .methodNotAllowed(let allowed):
            response = errorPage(405, request, member: signedInMember(request))
            response.setHeader("Allow", allowed.joined(separator: ", "))
        case .notFound where api.serves(request):
            response = api.notFound(request)
        case .notFound:
            response = errorPage(404, request, member: signedInMember(request))
        }
        return finish(response, for: request)
    }

    public func respond(toRefused request: Request, status: Int) -> Response {
        var request = request
        request.routePattern =
            (request.admissionNote as? RoutedRequest)?.pattern ?? router.resolve(method: request.method, path: request.path).pattern
        if api.serves(request) { return finish(api.refused(request, status: status), for: request) }
        guard status >= 500 else { return finish(errorPage(status, request, member: nil), for: request) }
        // A 5xx from the core: the body could not be taken in. Free space tells a full disk (said so,
        // 507) from another failure; the log line names the status actually sent.
        let full = StorageFailure.diskIsFull(at: photos.directory.path)
        let response = full ? storagePage(.full, request, member: nil) : errorPage(status, request, member: nil)
        logger.error(
            "request refused by the server core\(full ? " (disk full)" : "")",
            metadata: [
                "method": "\(RequestLog.method(request.method))", "route": "\(RequestLog.route(request))", "status": "\(response.status)",
                "core_status": "\(status)",
            ])
        return finish(response, for: request)
    }

    /// 421 for a request to a host name this server does not answer to. `/healthz` answers any:
    /// a health check may use a container's name, and the answer carries nothing private.
    func misdirected(_ request: Request) -> Response? {
        guard let hosts, request.path != SystemController.healthPath else { return nil }
        guard let host = request.headers["host"], hosts.allows(host: host) else {
            logger.notice("refused a request for another host name (DNS rebinding?)", metadata: ["method": "\(RequestLog.method(request.method))"])
            return HostAllowlist.misdirected()
        }
        return nil
    }

    /// The member behind the request's cookie, if any (for pages outside the route table).
    func signedInMember(_ request: Request) -> SignedIn? {
        guard let token = cookies.sessionToken(request) else { return nil }
        return try? accounts.session(token: token)
    }

    /// An error page, with the header of whoever is signed in.
    func errorPage(_ status: Int, _ request: Request, member: SignedIn?) -> Response {
        let locale = locale(for: request, member: member)
        let context = RequestContext(request: request, locale: locale, member: member, csrfToken: member?.csrfToken ?? "")
        return renderer.response(ErrorPage(status: status, locale: locale), context, status: status)
    }

    /// The member behind the request's session cookie; nil without one, or when it has expired.
    func readSession(_ request: Request) throws -> SignedIn? {
        try cookies.sessionToken(request).flatMap { try accounts.session(token: $0) }
    }

    /// `session`: the session when admission has read it already (routes that take uploads).
    func serve(_ request: Request, _ endpoint: Endpoint, session: RoutedRequest.Session = .unread) -> Response {
        var member: SignedIn?
        if endpoint.access == .token {
            return run(endpoint, RequestContext(request: request, negotiating: renderer.localizations))
        }
        do {
            if endpoint.access != .asset {
                member = try session.isRead ? session.member : readSession(request)
            }
        } catch {
            return failure(error, request, member: nil)
        }
        if endpoint.access == .asset {
            return run(endpoint, RequestContext(request: request, negotiating: renderer.localizations))
        }
        let locale = locale(for: request, member: member)

        // Before the first household exists, every page leads to the setup.
        if !householdExists.load(ordering: .relaxed) {
            if (try? accounts.hasHousehold()) == true {
                householdExists.store(true, ordering: .relaxed)
            } else if !request.path.hasPrefix(Route.setup), request.path != TLSPaths.page {
                // /tls too: a phone may install the CA before the household is set up over HTTPS.
                return .redirect(to: Route.setup)
            }
        }

        // Forms of signed-in members carry their session's token; others a cookie's (double submit).
        let anonymousToken = member == nil ? cookies.csrfToken(request).flatMap { $0.isEmpty ? nil : $0 } : nil
        let csrfToken = member?.csrfToken ?? anonymousToken ?? Crypto.token()
        let context = RequestContext(request: request, locale: locale, member: member, csrfToken: csrfToken)

        if let refusal = refusal(endpoint.access, context) { return refusal }
        if request.method == "POST", !CSRF.accepts(request, expected: member?.csrfToken ?? anonymousToken, hosts: hosts) {
            logger.notice("CSRF check refused", metadata: ["route": "\(RequestLog.route(request))"])
            return errorPage(403, request, member: member)
        }
        var response = run(endpoint, context)
        if member == nil, anonymousToken == nil, response.header("Content-Type")?.hasPrefix("text/html") == true {
            response.headers.append(("Set-Cookie", cookies.over(request).csrfCookie(csrfToken)))
        }
        return response
    }

    /// The answer when the reader may not use the route: sign in first, or 403.
    func refusal(_ access: Access, _ context: RequestContext) -> Response? {
        let request = context.request
        switch access {
        case .asset, .open, .token:
            return nil
        case .signedIn, .writer, .owner:
            guard let member = context.member else {
                // Signed out (or the session expired): sign in first. A form sent from an expired
                // session, Sign out included, changes nothing and lands on the login page.
                let isRead = request.method == "GET" || request.method == "HEAD"
                let next =
                    !isRead || request.path == "/" ? "" : "?next=" + (request.path.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "")
                var response = Response.redirect(to: Route.login + next)
                if cookies.sessionToken(request) != nil { response.headers.append(("Set-Cookie", cookies.over(request).clearSession())) }
                return response
            }
            let allowed = access == .writer ? member.role.canWrite : access == .owner ? member.role == .owner : true
            if !allowed { return errorPage(403, request, member: member) }
            return nil
        }
    }

    func run(_ endpoint: Endpoint, _ context: RequestContext) -> Response {
        do {
            return try endpoint.handler(context)
        } catch {
            return failure(error, context.request, member: context.member)
        }
    }

    func failure(_ error: any Error, _ request: Request, member: SignedIn?) -> Response {
        if let error = error as? InventoryError, error == .notFound {
            return errorPage(404, request, member: member)
        }
        let fields: Logger.Metadata = ["method": "\(RequestLog.method(request.method))", "route": "\(RequestLog.route(request))", "error": "\(error)"]
        if let storage = StorageFailure(error) {
            logger.error("request failed: storage \(storage)", metadata: fields)
            return storagePage(storage, request, member: member)
        }
        logger.error("request failed", metadata: fields)
        return errorPage(500, request, member: member)
    }

    /// The page that says the server's disk is full, read-only or failing (507 or 503).
    func storagePage(_ storage: StorageFailure, _ request: Request, member: SignedIn?) -> Response {
        let locale = locale(for: request, member: member)
        let context = RequestContext(request: request, locale: locale, member: member, csrfToken: member?.csrfToken ?? "")
        return renderer.response(ErrorPage(storage: storage, locale: locale), context, status: storage.status)
    }

    /// The member's chosen language, else the browser's.
    func locale(for request: Request, member: SignedIn?) -> Catalog {
        if let language = member?.language, let catalog = renderer.localizations.catalogs[language] { return catalog }
        return renderer.localizations.negotiate(request.headers["accept-language"])
    }

    private func finish(_ response: Response, for request: Request) -> Response {
        var response = response
        SecurityHeaders.apply(to: &response)
        if response.header("Cache-Control") == nil {
            // Pages show private data: never from a shared cache, never from the back button after logout.
            response.headers.append(("Cache-Control", "no-store"))
        }
        let elapsed = ContinuousClock.now - request.startedAt
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        logger.info("\(RequestLog.line(request, status: response.status, microseconds: max(0, micros)))")
        return response
    }
}

extension CharacterSet {
    static let urlQueryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))
}

/// A request's route, and its session once read: worked out from the head by `App.admit` for a
/// POST and handed back with the body (`Request.admissionNote`), so `App.respond` neither routes
/// the request again nor reads its session again.
struct RoutedRequest: Sendable {
    enum Session: Sendable {
        case unread
        /// The member behind the cookie when the head came in (nil: nobody signed in).
        case read(SignedIn?)

        var isRead: Bool { if case .read = self { true } else { false } }
        var member: SignedIn? { if case .read(let member) = self { member } else { nil } }
    }

    let match: Router<Endpoint>.Match
    /// The pattern of the route that decided the match, for logs.
    let pattern: String?
    var session = Session.unread

    init(_ resolved: (match: Router<Endpoint>.Match, pattern: String?)) {
        match = resolved.match
        pattern = resolved.pattern
    }
}
