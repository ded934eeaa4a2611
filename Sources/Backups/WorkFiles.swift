import Foundation

/// Every temporary file and folder a backup or a restore makes (a database snapshot with its photo
/// links, a partial archive, a restore's staging folder) is named
/// `.zaiko-tmp-<process id>-<random>-<purpose>`, hidden, beside where the result goes. A process
/// killed mid-way leaves them behind; `sweep` removes those whose process is gone, at `serve`'s
/// start and at the start of each backup and restore. Nothing else is ever removed.
public enum WorkFiles {
    static let prefix = ".zaiko-tmp-"

    /// A new name in `folder` for work in progress of this process.
    static func new(in folder: URL, _ purpose: String) -> URL {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return folder.appendingPathComponent("\(prefix)\(getpid())-\(random)-\(purpose)")
    }

    /// A new name beside `url`, for work that ends as `url`.
    static func beside(_ url: URL, _ purpose: String) -> URL { new(in: url.deletingLastPathComponent(), purpose) }

    /// The process that made the work file `name`; nil for any name that is not one.
    static func owner(of name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count).prefix { $0 != "-" }
        guard let pid = pid_t(digits), pid > 0 else { return nil }
        return pid
    }

    /// Removes the work files in `folder` left by processes that have ended, and this process's own
    /// when `includingOwn` (the caller has no work of its own in progress there); the names removed.
    @discardableResult
    public static func sweep(_ folder: URL, includingOwn: Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = owner(of: name) else { continue }
            let ended = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            guard ended || (includingOwn && pid == getpid()) else { continue }
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
    }
}
