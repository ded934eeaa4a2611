import ArgumentParser
import Foundation
import TLSCertificates

struct TLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tls", abstract: "The local certificate authority behind Zaiko's HTTPS.", subcommands: [Rotate.self])

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the local certificate authority and the server certificate (every device must then install the new authority).",
            discussion: "The old files stay in <data>/tls/ with \"replaced\" and the date in their names until you delete them.")

        @Option(help: "Folder holding zaiko.sqlite and tls/. (ZAIKO_DATA, default ./data)")
        var data: String?

        func run() throws {
            DataDirectory.keepNewFilesPrivate()
            let path = data ?? ProcessInfo.processInfo.environment["ZAIKO_DATA"] ?? "./data"
            let dataURL = URL(fileURLWithPath: path).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dataURL.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw Failure(message: "There is no Zaiko data folder at \(path); start the server once or pass --data.")
            }
            let hostname = LocalAuthority.machineHostname()
            let authority = LocalAuthority(directory: LocalCertificates.folder(data: dataURL), hostname: hostname)
            let replacing = FileManager.default.fileExists(atPath: authority.caCertificateFile.path)
            let status: CertificateStatus
            do {
                status = try authority.rotate(
                    names: LocalCertificates.names(hostname: hostname), addresses: LocalCertificates.addresses(lan: NetworkAddresses.lan()),
                    now: Date())
            } catch let error as CertificateError {
                throw Failure(message: error.description)
            }
            print("Made a new local certificate authority, \"Zaiko at \(hostname)\", and a server certificate signed by it.")
            print("SHA-256 fingerprint: \(status.caFingerprint)")
            print("Every phone and computer that opens Zaiko over HTTPS must now install the new authority:")
            print("open /tls on each (http://\(NetworkAddresses.lan().first ?? "127.0.0.1"):8080/tls) and compare the fingerprint.")
            guard replacing else { return }
            print("The old files are kept in \(authority.directory.path) with \"replaced\" in their names; delete them when you no longer need them.")
        }
    }
}
