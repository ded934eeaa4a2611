import ArgumentParser
import Foundation
import HTTPServer
import Inventory
import Logging
import Outbound
import Reminders
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

    @Option(help: "Folder holding Templates/ and Public/. (ZAIKO_RESOURCES, default: the working directory, then beside the executable)")
    var resources: String?

    @Option(help: "Threads that read requests, and as many that answer them. (default: the number of cores)")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Largest request body in megabytes; larger ones get 413.")
    var maxBodyMB: Int = 20

    @Option(help: "Open connections in all.")
    var maxConnections: Int = 512

    @Option(help: "Open connections from one client (an IPv4 address, or an IPv6 /64).")
    var maxConnectionsPerClient: Int = 32

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

    @Flag(help: "The HTTP port redirects every page to HTTPS (/healthz stays on HTTP).")
    var httpsOnly = false

    @Flag(help: "Let push channels and the barcode look-up reach local and private addresses (an ntfy server on the home network). Off: only public addresses.")
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
            let https = try HTTPSChoice.resolve(
                port: try httpsPort ?? environment["ZAIKO_HTTPS_PORT"].map(Self.parsePort) ?? 8443, disabled: noHttps,
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
            // Where requests typed by an owner may go: decided once, for push and the look-up alike.
            let outbound = OutboundHTTP(policy: AddressPolicy(allowsPrivate: allowPrivateOutbound))
            options.outbound = outbound
            // The /tls page: the local CA and the HTTPS addresses (known once the listener has its port).
            let tlsPage = https.map { _ in TLSPageSource(certificate: LocalCertificates.folder(data: dataDirectory.url).appendingPathComponent("ca.crt")) }
            options.tls = tlsPage
            let app = try await App(database: database, resources: resources, logger: logger, options: options)
            // What a crash left (files without a row, half-written files) goes before anyone can upload.
            try app.photos.collectGarbage(everyOrphan: true)
            let photoCleaner = Task {
                while true {
                    do { try await Task.sleep(for: .seconds(3600)) } catch { return }
                    try? app.photos.collectGarbage()
                }
            }
            // Reminders and push on their own task: sending never holds up a page.
            let localizations = app.renderer.localizations
            // On the test clock the engine looks again every second: a test moves the time by writing a file.
            let engine = ReminderEngine(
                database: database, clock: clock, sleeper: testClock.map { SystemSleeper(clock: $0.wall, longest: 1) },
                delivery: PushDelivery(sender: outbound),
                texts: ReminderTexts { language, key in localizations.catalogs[language]?.text(key) },
                logger: Logger(label: "zaiko.reminders"))
            let reminders = Task.detached { await engine.run() }
            let automaticBackups = try backups.start(database: database, data: dataDirectory.url, photos: dataDirectory.photosURL, localizations: localizations)

            let configuration = ServerConfiguration(
                host: host ?? environment["ZAIKO_HOST"] ?? "0.0.0.0",
                port: try port ?? environment["ZAIKO_PORT"].map(Self.parsePort) ?? 8080,
                threads: threads, maxBodyBytes: maxBodyMB * 1024 * 1024,
                maxConnections: maxConnections, maxConnectionsPerClient: maxConnectionsPerClient,
                inactivityTimeout: idleTimeout, headerDeadline: .seconds(max(1, headerDeadline)),
                minimumUploadRate: max(1, minUploadKBps) * 1024, uploadDirectory: dataDirectory.uploadsURL)
            let secureServer = https?.server(like: configuration, responder: app, logger: logger)
            try secureServer?.start()
            let server = Server(configuration: configuration, responder: https?.httpResponder(app, httpsPort: secureServer?.port ?? 0) ?? app)
            try server.start()
            if let secureServer {
                let hosts = configuration.host == "0.0.0.0" ? NetworkAddresses.lan() : [configuration.host]
                tlsPage?.announce(hosts.map { "https://\($0.contains(":") ? "[\($0)]" : $0):\(secureServer.port)" })
            }
            announce(
                host: configuration.host, port: server.port, httpsPort: secureServer?.port,
                fingerprint: try localCertificates?.authority.caFingerprint(), data: dataDirectory.url, setupCode: setupCode)

            await ShutdownSignal.wait()
            print("Stopping: finishing requests in flight…")
            server.shutdown(grace: .seconds(10))
            secureServer?.shutdown(grace: .seconds(10))
            localCertificates?.renewal.stop()
            // Both finish what they are doing before the database closes under them.
            photoCleaner.cancel()
            engine.stop()
            automaticBackups?.stop()
            await photoCleaner.value
            await reminders.value
            // Checkpoints the WAL into zaiko.sqlite first: a copy of that file alone holds every write.
            try database.close()
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

    static func parsePort(_ text: String) throws -> UInt16 {
        guard let port = UInt16(text) else { throw Failure(message: "ZAIKO_PORT must be a port number (0 to 65535), not \"\(text)\".") }
        return port
    }

    /// Templates/ and Public/ beside the working directory, or beside the installed binary.
    static func locateResources(_ explicit: String?) throws -> Resources {
        if let explicit {
            let resources = Resources(root: URL(fileURLWithPath: explicit))
            guard resources.isComplete else { throw Failure(message: "\(explicit) does not hold Templates/ and Public/ (--resources).") }
            return resources
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            executable,
            executable.appendingPathComponent("../share/zaiko").standardized,
        ]
        guard let found = candidates.map(Resources.init(root:)).first(where: \.isComplete) else {
            throw Failure(message: "Cannot find Templates/ and Public/: run zaiko from its folder or pass --resources DIR.")
        }
        return found
    }

    func announce(host: String, port: UInt16, httpsPort: UInt16?, fingerprint: String?, data: URL, setupCode: String?) {
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
