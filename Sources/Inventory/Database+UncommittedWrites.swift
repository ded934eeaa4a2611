import GRDB
import GRDBSQLite

extension Database {
    /// True inside a transaction that holds the write lock: from its start when it began IMMEDIATE
    /// (a pool's writes), else from its first write. What it reads may include writes that are
    /// never committed, so nothing read then is kept in memory for other readers
    /// (`RecipeCatalogs`, `ReservationCache`).
    var isInWriteTransaction: Bool {
        guard let connection = sqliteConnection else { return false }
        return sqlite3_txn_state(connection, nil) == SQLITE_TXN_WRITE
    }
}
