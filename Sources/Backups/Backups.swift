// Backups: consistent archives of the whole server (database snapshot, photos, manifest),
// their verification and restore, and the daily schedule that keeps them. Knows nothing of HTTP.
