import ArgumentParser
import Foundation
import HTTPServer
import Inventory
import Lifecycle
import Logging
import Outbound
import Reminders
import Synchronization
import TLSCertificates
import Web

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the web server.",
        discussion: "Each option can also be set through the environment variable named in its help."
    )

    @Option(help: "Address to listen on; 0.0.0.0 is reachable from the home network. (ZAIKO_HOST, default 0.0.0.0)")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one. (ZAIKO_PORT, default 8080)")
    var port: UInt16?

    @Option(help: "Folder for the database and photos, created if missing. (ZAIKO_DATA, default ./data)")
    var data: String?

    @Option(help: "Folder holding Public/. (ZAIKO_RESOURCES, default: the working directory, then beside the executable)")
    var resources: String?

    @Option(help: "Threads that read requests, and as many that answer them. (default: the number of cores)")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Largest request body in megabytes; larger ones get 413.")
    var maxBodyMB: Int = 20

    @Option(help: "Open connections in all.")
    var maxConnections: Int = 512

    @Option(help: "Open connections from one client (an IPv4 address, or an IPv6 /64).")
    var maxConnectionsPerClient: Int = 32

    @Option(help: "Live-update streams one member may hold open at once (one per tab that cannot share one).")
    var liveStreamsPerMember: Int = 8

    @Option(help: "Seconds an idle connection is kept.")
    var idleTimeout: Int = 30

    @Option(help: "Seconds a request's headers may take, however steadily they trickle in.")
    var headerDeadline: Int = 30

    @Option(help: "Slowest upload accepted, in KB/s: a body's deadline is the header deadline plus its size at this rate.")
    var minUploadKBps: Int = 16

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Flag(help: "Mark cookies Secure: use when Zaiko is reached through an HTTPS proxy.")
    var secureCookies = false

    @Option(help: "Port for HTTPS. (ZAIKO_HTTPS_PORT, default 8443)")
    var httpsPort: UInt16?

    @Flag(help: "Serve plain HTTP only.")
    var noHttps = false

    @Option(help: "Certificate chain for HTTPS (PEM, the server's certificate first); read again when the file changes.")
    var tlsCert: String?

    @Option(help: "Private key of --tls-cert (PEM, unencrypted); read again when the file changes.")
    var tlsKey: String?

    @Flag(help: "The HTTP port redirects every page to HTTPS (/healthz, /tls and the CA downloads stay on HTTP).")
    var httpsOnly = false

    @Option(
        name: .customLong("public-name"),
        help: ArgumentHelp(
            "A host name Zaiko is reached by besides the machine's own names and addresses (a reverse proxy's); repeat for more. Requests for other names get 421.",
            valueName: "name"))
    var publicNames: [String] = []

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "Address of a reverse proxy whose connections are counted by the client it forwards (the last X-Forwarded-For entry, else Forwarded: for=), for the per-client limits and sign-in throttling; repeat for more.",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Flag(
        help: """
            Let push channels and the barcode look-up (addresses an owner types in Settings) reach local and private addresses, such as an ntfy server on the home network. Recipe imports, whose address any member types, reach them only in households whose owner also allows it in Settings. Off: only public addresses, for everything.
            """)
    var allowPrivateOutbound = false

    @OptionGroup(title: "Automatic backups")
    var backups: AutomaticBackupOptions

    func run() async throws {
        DataDirectory.keepNewFilesPrivate()
        let environment = ProcessInfo.processInfo.environment
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "zaiko")
        // Before anything is announced: a SIGTERM right after "Listening on" must still stop cleanly.
        ShutdownSignal.install()

        do {
            let dataDirectory = try DataDirectory(path: data ?? environment["ZAIKO_DATA"] ?? "./data")
            // Zaiko's own CA and certificate in <data>/tls/ unless the operator brings theirs.
            var localCertificates: (authority: LocalAuthority, renewal: CertificateRenewal)?
            // A port asked for must be had; the default is given up (with a warning) when busy.
            let explicitHTTPSPort = try httpsPort ?? environment["ZAIKO_HTTPS_PORT"].map(Self.parsePort)
            let https = try HTTPSChoice.resolve(
                port: explicitHTTPSPort ?? Self.defaultHTTPSPort(environment), disabled: noHttps,
                certificate: tlsCert, key: tlsKey, httpsOnly: httpsOnly,
                ownCertificate: {
                    let local = try LocalCertificates.keep(data: dataDirectory.url, logger: Logger(label: "zaiko.tls"))
                    localCertificates = local
                    return CertificateFiles(certificate: local.authority.serverCertificateFile, key: local.authority.serverKeyFile)
                })
            let resources = try Self.locateResources(resources ?? environment["ZAIKO_RESOURCES"])
            let database = try AppDatabase.open(at: dataDirectory.databaseURL)
            // First run: a one-time code, printed here only, proves the person setting up runs the server.
            let setupCode = try Accounts(database: database).hasHousehold() ? nil : SetupCode.make()
            let testClock = try TestClock.fromEnvironment(environment)
            if let testClock { logger.warning("the clock reads \(testClock.file.path) (\(TestClock.variable)): for tests only") }
            let clock = testClock?.wall ?? .system
            var options = AppOptions(
                secureCookies: secureCookies, setupCode: setupCode, clock: clock, photos: dataDirectory.photosURL, pushTestWait: .seconds(5))
            options.maxBodyBytes = maxBodyMB * 1024 * 1024
            // Live-update streams leave half the connections to pages, and beat within the idle timeout.
            options.liveEvents.total = max(1, maxConnections / 2)
            options.liveEvents.perMember = max(1, liveStreamsPerMember)
            options.liveEvents.heartbeat = .seconds(max(1, min(15, idleTimeout / 2)))
            // Where requests typed by an owner may go: decided once, for push and the look-up alike.
            let outbound = OutboundHTTP(policy: AddressPolicy(allowsPrivate: allowPrivateOutbound))
            options.outbound = outbound
            // Where requests a member sets off may go: the home network only where that household's owner allows it too.
            options.memberFetches = MemberFetches(operatorAllowsPrivate: allowPrivateOutbound)
            // The /tls page: the local CA and the HTTPS addresses (known once the listener has its port).
            let tlsPage = https.map { _ in TLSPageSource(certificate: LocalCertificates.folder(data: dataDirectory.url).appendingPathComponent("ca.crt")) }
            options.tls = tlsPage
            let localizations = Localizations.embedded
            let automaticBackups = try backups.make(
                database: database, data: dataDirectory.url, photos: dataDirectory.photosURL, localizations: localizations)
            options.backups = automaticBackups
            let listenHost = host ?? environment["ZAIKO_HOST"] ?? "0.0.0.0"
            let allowedHosts = HostAllowlist(ownNames: Self.ownNames(listeningOn: listenHost), publicNames: publicNames)
            options.hosts = allowedHosts
            for proxy in trustedProxies where ClientKey(proxy) == nil {
                throw Failure(message: "--trusted-proxy takes the IP address of a reverse proxy, such as 192.168.1.5; \"\(proxy)\" is not one.")
            }
            let app = try await App(database: database, resources: resources, logger: logger, options: options)
            // What a crash left (files without a row, half-written files) goes before anyone can upload.
            try app.photos.collectGarbage(everyOrphan: true)
            // Reminders and push on their own task: sending never holds up a page.
            // On the test clock the engine looks again every second: a test moves the time by writing a file.
            let engine = ReminderEngine(
                database: database, clock: clock, sleeper: testClock.map { SystemSleeper(clock: $0.wall, longest: 1) },
                delivery: PushDelivery(sender: outbound),
                texts: ReminderTexts { language, key in localizations.catalogs[language]?.text(named: key) },
                logger: Logger(label: "zaiko.reminders"))

            var configuration = ServerConfiguration(
                host: listenHost,
                port: try port ?? environment["ZAIKO_PORT"].map(Self.parsePort) ?? 8080,
                threads: threads, maxBodyBytes: maxBodyMB * 1024 * 1024,
                maxConnections: maxConnections, maxConnectionsPerClient: maxConnectionsPerClient,
                inactivityTimeout: idleTimeout, headerDeadline: .seconds(max(1, headerDeadline)),
                minimumUploadRate: max(1, minUploadKBps) * 1024, uploadDirectory: dataDirectory.uploadsURL)
            configuration.trustedProxies = trustedProxies
            let explicit = explicitHTTPSPort != nil
            let authority = localCertificates?.authority
            let listeners = Listeners { [configuration, app] in
                let secureServer = try https.flatMap {
                    try Self.startHTTPS($0, like: configuration, responder: app, explicit: explicit, logger: logger)
                }
                let server = Server(
                    configuration: configuration,
                    responder: secureServer.flatMap { secure in https?.httpResponder(app, httpsPort: secure.port) } ?? app)
                try server.start()
                allowedHosts.listening(on: [server.port] + (secureServer.map { [$0.port] } ?? []))
                if let secureServer {
                    let hosts = configuration.host == "0.0.0.0" ? NetworkAddresses.lan() : [configuration.host]
                    tlsPage?.announce(hosts.map { "https://\($0.contains(":") ? "[\($0)]" : $0):\(secureServer.port)" })
                }
                Self.announce(
                    host: configuration.host, port: server.port, httpsPort: secureServer?.port,
                    fingerprint: secureServer == nil ? nil : try authority?.caFingerprint(), data: dataDirectory.url, setupCode: setupCode)
                return [server] + (secureServer.map { [$0] } ?? [])
            }
            // Started in this order, each may rely on those before it; stopped in reverse at SIGTERM or
            // SIGINT, each once the one after it has stopped: the listeners finish the requests in flight,
            // the renewal its check, the backups the archive being made, the engine its pass and
            // deliveries, the cleaner its pass, all before the database closes under them.
            var services: [any Service] = [PhotoCleaner(store: app.photos), engine]
            if let automaticBackups { services.append(automaticBackups) }
            if let renewal = localCertificates?.renewal { services.append(renewal) }
            services.append(listeners)
            try await ServiceGroup(services).run(until: ShutdownSignal.wait)
            let abandoned = listeners.abandoned
            for label in abandoned {
                logger.warning("stopped without its answer: still being answered when the stop's time was up", metadata: ["request": "\(label)"])
            }
            // The file was deleted or replaced while running: what the server still holds open is
            // the only copy of every acknowledged write, so it is saved beside, and the stop says so.
            if let change = database.fileChange() { throw Self.rescue(database, change, logger: logger) }
            // Checkpoints the WAL into zaiko.sqlite first: a copy of that file alone holds every write.
            if abandoned.isEmpty {
                try database.close()
            } else if await !Self.close(database, within: .seconds(1)) {
                // An answer given up may hold the database: every acknowledged write is already on
                // disk, and the write-ahead log is replayed at the next start.
                print("Stopped without closing the database (an answer given up still holds it); the next start replays its log.")
                fflush(nil)
                Foundation.exit(Self.stoppedWithDatabaseOpen)
            }
            print("Stopped.")
        } catch let error as ServerError {
            throw Failure(message: error.description)
        } catch let error as InventoryError {
            throw Failure(message: error.description)
        } catch let error as DataDirectory.Problem {
            throw Failure(message: error.description)
        } catch let error as Failure {
            throw error
        }
    }

    /// The names a request may give as its Host: the machine's host names, localhost, and every
    /// address of its interfaces (or the one address it listens on).
    static func ownNames(listeningOn host: String) -> [String] {
        let addresses = ["0.0.0.0", "::"].contains(host) ? NetworkAddresses.all() : [host]
        return NetworkAddresses.hostNames() + ["localhost", "127.0.0.1", "::1"] + addresses
    }

    /// 8443, or for tests (which must not depend on a fixed port) the port in
    /// `ZAIKO_TEST_DEFAULT_HTTPS_PORT`: treated as the default, not as a port asked for.
    static func defaultHTTPSPort(_ environment: [String: String]) -> UInt16 {
        environment["ZAIKO_TEST_DEFAULT_HTTPS_PORT"].flatMap(UInt16.init) ?? 8443
    }

    /// Starts the HTTPS listener. A busy port that was asked for (`--https-port`, `ZAIKO_HTTPS_PORT`)
    /// stops the server naming that option; the default port, busy (a UniFi controller takes 8443),
    /// only costs HTTPS: a warning, and plain HTTP is served (unless `--https-only` needs HTTPS).
    static func startHTTPS(
        _ https: HTTPSChoice, like configuration: ServerConfiguration, responder: any Responder, explicit: Bool, logger: Logger
    ) throws -> Server? {
        let server = https.server(like: configuration, responder: responder, logger: logger)
        do {
            try server.start()
            return server
        } catch ServerError.addressInUse(let host, let port) {
            guard explicit || https.httpsOnly else {
                logger.warning(
                    "HTTPS is off: port \(port) on \(host) is already in use by another program. Plain HTTP is served; choose a free HTTPS port with --https-port, or turn HTTPS off with --no-https."
                )
                return nil
            }
            throw Failure(message: "Port \(port) on \(host) for HTTPS is already in use; stop the other program or choose another port with --https-port.")
        } catch ServerError.permissionDenied(let port) {
            throw Failure(message: "Not allowed to listen on port \(port) for HTTPS; ports below 1024 need extra rights, choose another with --https-port.")
        }
    }

    /// The exit status when an answer given up at the stop kept the database from closing.
    static let stoppedWithDatabaseOpen: Int32 = 3

    /// Closes the database on a thread of its own; false when that has not ended within `limit`.
    static func close(_ database: AppDatabase, within limit: Duration) async -> Bool {
        await onOwnThread(named: "zaiko.close", within: limit) { (try? database.close()) != nil } != nil
    }

    /// Saves the open database beside its deleted or replaced file and returns the failure the stop
    /// ends with (never exit 0: whoever runs Zaiko must put the saved file back).
    static func rescue(_ database: AppDatabase, _ change: DatabaseFileChange, logger: Logger) -> Failure {
        let path = database.path
        let what = change == .gone ? "was deleted" : "was replaced by another file"
        do {
            let saved = try database.saveBeside()
            try? database.close()
            logger.critical("database file \(what) while running; everything it held is saved", metadata: ["file": "\(path)", "saved": "\(saved.path)"])
            return Failure(
                message: "The database file \(path) \(what) while Zaiko was running. Everything Zaiko had saved is in \(saved.path): "
                    + "with Zaiko stopped, move it to \(path) to keep it.")
        } catch {
            try? database.close()
            logger.critical("database file \(what) while running; saving it beside failed", metadata: ["file": "\(path)", "error": "\(error)"])
            return Failure(message: "The database file \(path) \(what) while Zaiko was running, and saving what it held failed: \(error)")
        }
    }

    static func parsePort(_ text: String) throws -> UInt16 {
        guard let port = UInt16(text) else { throw Failure(message: "ZAIKO_PORT must be a port number (0 to 65535), not \"\(text)\".") }
        return port
    }

    /// Public/ in the working directory, or beside the installed binary.
    static func locateResources(_ explicit: String?) throws -> Resources {
        if let explicit {
            let resources = Resources(root: URL(fileURLWithPath: explicit))
            guard resources.isComplete else { throw Failure(message: "\(explicit) does not hold Public/ (--resources).") }
            return resources
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            executable,
            executable.appendingPathComponent("../share/zaiko").standardized,
        ]
        guard let found = candidates.map(Resources.init(root:)).first(where: \.isComplete) else {
            throw Failure(message: "Cannot find Public/: run zaiko from its folder or pass --resources DIR.")
        }
        return found
    }

    static func announce(host: String, port: UInt16, httpsPort: UInt16?, fingerprint: String?, data: URL, setupCode: String?) {
        // The first line stays "Listening on host:port" (HTTP): scripts and tests read it.
        print("Listening on \(host):\(port)")
        if let httpsPort { print("Listening for HTTPS on \(host):\(httpsPort)") }
        let hosts = (host == "0.0.0.0" ? NetworkAddresses.lan() + ["127.0.0.1"] : [host]).map { $0.contains(":") ? "[\($0)]" : $0 }
        let addresses = hosts.map { "http://\($0):\(port)" }
        print("Open Zaiko from a phone or computer on this network:")
        for address in addresses { print("  \(address)") }
        if let httpsPort {
            print("Over HTTPS (once the device trusts the certificate):")
            for host in hosts { print("  https://\(host):\(httpsPort)") }
        }
        if let fingerprint, let first = addresses.first {
            print("Zaiko's certificate authority, to install once on each device from \(first)/tls")
            print("  SHA-256 fingerprint: \(fingerprint)")
        }
        print("Data: \(data.path)")
        if let setupCode, let first = addresses.first {
            print("")
            print("No household yet. Open \(first)/setup and enter this code:")
            print("Setup code: \(setupCode)")
        }
        fflush(nil)
    }
}

/// A start-up problem told as one sentence, with a non-zero exit.
struct Failure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
