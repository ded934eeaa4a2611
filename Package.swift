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
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
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

        // The HTTP core over libmicrohttpd. Knows nothing of inventory or templates.
        .target(
            name: "HTTPServer",
            dependencies: ["CMicroHTTPD"]
        ),
        // The domain and its storage. Knows nothing of HTTP or HTML.
        .target(
            name: "Inventory",
            dependencies: [
                "CSodium",
                .product(name: "GRDB", package: "GRDB.swift"),
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
        // The reminder engine: sends due reminders and daily digests through the household's push channel.
        .target(
            name: "Reminders",
            dependencies: [
                "Inventory",
                "Outbound",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
            ]
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What the test targets share: a household on an in-memory database, a manual clock,
        // cheap password hashing, waiting for an event, running heavy work off the cooperative pool.
        .target(name: "TestSupport", dependencies: ["Inventory"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Inventory", "TestSupport"]),
        .testTarget(name: "InventoryTests", dependencies: ["Inventory", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CGD", "Inventory", "TestSupport"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "HTTPServer", "Inventory", "Outbound", "CGD", "TestSupport"]),
        .testTarget(
            name: "RemindersTests",
            dependencies: [
                "Reminders", "Outbound", "Inventory", "HTTPServer", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
