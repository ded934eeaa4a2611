// swift-tools-version:6.0
// Zaiko: a self-hosted household inventory. See README.md.
import PackageDescription

let package = Package(
    name: "zaiko",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "zaiko", targets: ["zaiko"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        // Typed ids (Item.ID, Folder.ID, …): an id of one table cannot be passed for another's.
        .package(url: "https://github.com/pointfreeco/swift-tagged", exact: "0.10.0"),
        // Whole-page snapshots in WebTests (its SnapshotTesting product only: no dependencies of its own).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
        // The API's generated types and server stubs run on these (api/openapi.yaml, `make openapi`).
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // /api/v1/mcp: the API's operations as tools for AI assistants (Model Context Protocol).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
    ],
    targets: [
        // System libraries: a module map and a shim header each, nothing else.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(
            // No pkgConfig: gdlib.pc's -DAVIF_DLL is a flag SwiftPM refuses; gd.h needs no -I.
            name: "CGD",
            providers: [.apt(["libgd-dev"])]
        ),
        .systemLibrary(
            name: "CZBar",
            pkgConfig: "zbar",
            providers: [.apt(["libzbar-dev"])]
        ),
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        .systemLibrary(
            // zlib's deflate for gzip (ZIPFoundation has its own module of it, named CZlib).
            name: "CZlibDeflate",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),

        // The HTTP core over libmicrohttpd. Knows nothing of inventory or templates.
        .target(
            name: "HTTPServer",
            // GnuTLS: the HTTPS listener's certificate callback (libmicrohttpd's TLS is GnuTLS).
            // Gzip: public text files are kept compressed as well.
            dependencies: ["CMicroHTTPD", "CGnuTLS", "Gzip"]
        ),
        // The gzip format through zlib, at a chosen level (pages are compressed per request).
        .target(name: "Gzip", dependencies: ["CZlibDeflate"]),
        // Background services (the reminder engine, backups, certificate renewal, the photo cleaner,
        // the listeners) and their one owner: started in order, stopped in reverse. No dependencies.
        .target(name: "Lifecycle"),
        // The domain and its storage. Knows nothing of HTTP or HTML.
        .target(
            name: "Inventory",
            dependencies: [
                "CSodium",
                // The photo cleaner is a service.
                "Lifecycle",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_txn_state: what a write transaction read is never kept for other readers.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Tagged", package: "swift-tagged"),
            ]
        ),
        // Photo normalisation and barcode decoding: pure functions over bytes.
        .target(
            name: "Imaging",
            dependencies: ["CGD", "CZBar"]
        ),
        // Times photo normalisation on one file (bench/photo); CGD only to draw the sample photo.
        .executableTarget(
            name: "imaging-bench",
            dependencies: ["Imaging", "CGD"]
        ),
        // Outbound HTTP requests (push messages, the online product look-up): no redirects, short timeouts.
        .target(
            name: "Outbound",
            dependencies: []
        ),
        // Reading a recipe from a web page or pasted text (schema.org JSON-LD, ingredient lines); fetches through Outbound.
        .target(
            name: "RecipeImport",
            dependencies: ["Outbound"]
        ),
        // The reminder engine: sends due reminders and daily digests through the household's push channel.
        .target(
            name: "Reminders",
            dependencies: [
                "Inventory",
                "Lifecycle",
                "Outbound",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Compiled templates: what the generated page functions call (the byte buffer, escaping,
        // sections, the context stack). No dependencies.
        .target(name: "TemplateRuntime"),
        // Mustache parsed and turned into Swift over typed view models (and an interpreter of the
        // same parse tree for the spec cases).
        .target(name: "TemplateCompiler", dependencies: ["TemplateRuntime"]),
        // The generator the build plugin runs: Templates/ in, one Swift file out.
        .executableTarget(name: "zaiko-templates", dependencies: ["TemplateCompiler"]),
        .plugin(name: "CompileTemplates", capability: .buildTool(), dependencies: ["zaiko-templates"]),
        // The API's contract in Swift: the types and server stubs swift-openapi-generator made from
        // api/openapi.yaml (committed, so a build needs no generator) and the document itself.
        .target(
            name: "APIContract",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The application: routes, controllers, view models, templates, localisation.
        .target(
            name: "Web",
            dependencies: [
                "HTTPServer",
                "Inventory",
                "Imaging",
                // Outbound HTTP for the online product look-up.
                "Outbound",
                // Importing a recipe from a web address or pasted text.
                "RecipeImport",
                // Backup status in Settings, the household export and the CSV import of items.
                "Backups",
                "Exchange",
                // The /tls page: the local CA's certificate and a QR code of the HTTPS address.
                "TLSCertificates",
                "CQRencode",
                // Reading the CA certificate for the /tls page (PEM to DER, its name and expiry).
                "CGnuTLS",
                .product(name: "Logging", package: "swift-log"),
                // Route parameters read as typed ids (`Endpoint.id()`).
                .product(name: "Tagged", package: "swift-tagged"),
                "TemplateRuntime",
                // /api/v1: the generated handlers' protocol, served through the HTTPServer router.
                "APIContract",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MCP", package: "swift-sdk"),
            ],
            plugins: ["CompileTemplates"]
        ),
        // Backups of the whole server: database snapshot + photos + manifest in one ZIP, restore, schedule.
        .target(
            name: "Backups",
            dependencies: [
                "Inventory",
                // The daily schedule is a service.
                "Lifecycle",
                // sha256 of every file in a stream (a database may not fit in memory twice).
                "CSodium",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The automatic backups log each outcome in one line.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One household in and out: export (JSON, CSV, photos), CSV import of items, Grocy import.
        .target(
            name: "Exchange",
            dependencies: [
                "Inventory",
                "Imaging",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        // The local certificate authority and the server certificate for HTTPS on the home network.
        .target(
            name: "TLSCertificates",
            // The renewal is a service.
            dependencies: ["CGnuTLS", "Lifecycle"]
        ),
        // The executable: command line, configuration, signals. Thin.
        .executableTarget(
            name: "zaiko",
            dependencies: [
                "Web",
                "Inventory",
                "HTTPServer",
                "Reminders",
                "Outbound",
                "Backups",
                "Exchange",
                "TLSCertificates",
                "Lifecycle",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What the test targets share: a household on an in-memory database, a manual clock,
        // cheap password hashing, waiting for an event, running heavy work off the cooperative pool.
        .target(name: "TestSupport", dependencies: ["Inventory", "Lifecycle"], path: "Tests/TestSupport"),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Gzip", "Inventory", "TestSupport"]),
        .testTarget(
            name: "InventoryTests", dependencies: ["Inventory", "TestSupport", .product(name: "Tagged", package: "swift-tagged")]
        ),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CGD", "Inventory", "TestSupport"]),
        .testTarget(
            name: "WebTests",
            dependencies: [
                "Web", "HTTPServer", "Inventory", "Outbound", "Backups", "CGD", "Imaging", "RecipeImport", "TemplateRuntime", "TestSupport",
                // Reads the household export a route answers with.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The main pages whole against their recorded snapshots (PageSnapshotTests).
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "BackupsTests",
            dependencies: [
                "Backups", "Inventory", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "ExchangeTests",
            dependencies: [
                // Imaging and CGD: the Grocy import's test draws a product picture and decodes the stored photo.
                "Exchange", "Inventory", "Imaging", "CGD", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"), .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        // HTTPServer: the fake recipe site on loopback.
        .testTarget(name: "RecipeImportTests", dependencies: ["RecipeImport", "Outbound", "HTTPServer", "TestSupport"]),
        // Spec/: the official Mustache spec cases (MIT), read by the tests from the source tree.
        .testTarget(name: "TemplateCompilerTests", dependencies: ["TemplateCompiler", "TemplateRuntime"], exclude: ["Spec"]),
        .testTarget(name: "TLSCertificatesTests", dependencies: ["TLSCertificates", "TestSupport"]),
        .testTarget(
            name: "RemindersTests",
            dependencies: [
                "Reminders", "Outbound", "Inventory", "HTTPServer", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
