PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1 households, members, sessions, folders, items');
INSERT INTO grdb_migrations VALUES('v2 single-use links, login throttling, remembered sessions');
INSERT INTO grdb_migrations VALUES('v3 item history, folder trash, search text');
INSERT INTO grdb_migrations VALUES('v4 folder item counts, due dates by folder');
INSERT INTO grdb_migrations VALUES('v5 reminders, calendar feeds, push channels');
INSERT INTO grdb_migrations VALUES('v6 photos, illustrations, product memory');
INSERT INTO grdb_migrations VALUES('v7 health check');
INSERT INTO grdb_migrations VALUES('v8 starter folders named in each reader''s language');
INSERT INTO grdb_migrations VALUES('v9 household search');
CREATE TABLE household (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    due_soon_days INTEGER NOT NULL DEFAULT 3 CHECK (due_soon_days BETWEEN 0 AND 60),
    created_at TEXT NOT NULL
, language TEXT, product_lookup_url TEXT);
INSERT INTO household VALUES(1,'Home','UTC',3,'2026-11-20T08:00:00Z','ja',NULL);
CREATE TABLE member (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    login TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner', 'member', 'viewer')),
    language TEXT,
    created_at TEXT NOT NULL
);
INSERT INTO member VALUES(1,1,'Aki','aki','$argon2id$v=19$m=8,t=1,p=1$bDfmCnwAXrlsTSdS1a+4jQ$WhyCm6Med/dLjziktZooETh6lUYP1QzR8qys6VFOFtw','owner',NULL,'2026-11-20T08:00:00Z');
INSERT INTO member VALUES(2,1,'Ken','ken','$argon2id$v=19$m=8,t=1,p=1$nQbjUJkK9Ls216EbC0WfiQ$GuhktXTGJ3Ks9jPDCWkRWg+SS29/XdMuh/BQFyKXBYM','member',NULL,'2026-11-20T08:00:00Z');
INSERT INTO member VALUES(3,1,'Mio','mio','$argon2id$v=19$m=8,t=1,p=1$UiGqzPhmiKD4HtLimGkZ/A$YfLo2dBEMTtus5kDKlABqPdvc+wEtLrFviaKlVRBxUg','viewer',NULL,'2026-11-20T08:00:00Z');
CREATE TABLE session (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL UNIQUE,
    csrf_token TEXT NOT NULL,
    user_agent TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
, remember INTEGER NOT NULL DEFAULT 0);
INSERT INTO session VALUES(1,1,X'394dcc6b6f944906178aa16c25c4f29417f85c09a9b1d809e9f8d043bd3d919d','HBAwCbo37ixn08J_qAvGDHGq6juRKrFsK6LqSKaz80s','test','2026-11-20T08:00:00Z','2026-11-20T08:00:00Z','2026-11-21T08:00:00Z',0);
INSERT INTO session VALUES(2,2,X'f1fc345d33e2d75950da280893271d3ee0ff63e1fd435d566259663cbb3b90ec','3liBYwuLUvOOtBQisujZ9kk9j6fmqs8m6SAwn7CXfU4','test','2026-11-20T08:00:00Z','2026-11-20T08:00:00Z','2026-11-21T08:00:00Z',0);
INSERT INTO session VALUES(3,3,X'6e47603668bb9d6ca3a7a67fe39f15d3808f4a5aecdc455786e10951ef2fbd8e','449NboW7icli9R62dMGbeB9GiI4bHKYtYdM_wT4YzSo','test','2026-11-20T08:00:00Z','2026-11-20T08:00:00Z','2026-11-21T08:00:00Z',0);
CREATE TABLE folder (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    kind TEXT NOT NULL CHECK (kind IN ('stock', 'shopping')),
    icon TEXT NOT NULL DEFAULT 'box',
    position INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, deleted_at TEXT, last_stock_folder_id INTEGER, item_count INTEGER NOT NULL DEFAULT 0, starter TEXT,
    -- lets item reference (household, folder) together: no item in another household's folder
    UNIQUE (household_id, id)
);
INSERT INTO folder VALUES(1,1,'Fridge','stock','fridge',0,'2026-11-20T08:00:00Z',NULL,NULL,2,'starter_fridge');
INSERT INTO folder VALUES(2,1,'Freezer','stock','freezer',1,'2026-11-20T08:00:00Z',NULL,NULL,0,'starter_freezer');
INSERT INTO folder VALUES(3,1,'Pantry','stock','pantry',2,'2026-11-20T08:00:00Z',NULL,NULL,0,'starter_pantry');
INSERT INTO folder VALUES(4,1,'Supermarket','shopping','cart',3,'2026-11-20T08:00:00Z',NULL,NULL,1,'starter_supermarket');
CREATE TABLE item (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    folder_id INTEGER NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    photo TEXT,
    quantity REAL NOT NULL DEFAULT 1 CHECK (quantity >= 0),
    unit TEXT NOT NULL DEFAULT 'piece' CHECK (unit IN ('piece', 'pack', 'bottle', 'can', 'bag', 'box', 'g', 'kg', 'ml', 'L')),
    kind TEXT NOT NULL DEFAULT 'other' CHECK (kind IN ('meat', 'fish', 'vegetables', 'fruit', 'dairy_eggs', 'drinks', 'seasonings', 'prepared', 'other')),
    note TEXT NOT NULL DEFAULT '',
    barcode TEXT,
    due TEXT CHECK (due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    remind_at TEXT CHECK (remind_at IS NULL OR due IS NOT NULL),
    status TEXT CHECK (status IS NULL OR status IN ('unopened', 'opened', 'running_low')),
    urgent INTEGER NOT NULL DEFAULT 0 CHECK (urgent IN (0, 1)),
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT, search_text TEXT NOT NULL DEFAULT '', reminder_sent_for TEXT, illustration TEXT,
    FOREIGN KEY (household_id, folder_id) REFERENCES folder(household_id, id) ON DELETE CASCADE
);
INSERT INTO item VALUES(1,1,1,'牛乳','d5c7d4e6066b9ca6d30a27c1ee767c55',1.0,'L','dairy_eggs','','4006381333931','2026-11-25','2026-11-24T00:00:00Z','opened',0,2,'2026-11-20T08:00:00Z','2026-11-20T09:00:00Z',NULL,replace('牛乳\n','\n',char(10)),NULL,NULL);
INSERT INTO item VALUES(2,1,1,'卵',NULL,4.0,'piece','dairy_eggs','',NULL,'2026-11-18',NULL,'opened',0,2,'2026-11-20T08:00:00Z','2026-11-20T09:00:00Z',NULL,replace('卵\n','\n',char(10)),NULL,NULL);
INSERT INTO item VALUES(3,1,1,'Spinach, "fresh"',NULL,200.0,'g','vegetables',replace('two lines\nof note','\n',char(10)),NULL,NULL,NULL,'unopened',0,2,'2026-11-20T08:00:00Z','2026-11-20T08:00:00Z','2026-11-20T09:00:00Z',replace('spinach, "fresh"\ntwo lines\nof note','\n',char(10)),NULL,'vegetables');
INSERT INTO item VALUES(4,1,4,'牛乳','d5c7d4e6066b9ca6d30a27c1ee767c55',1.0,'L','dairy_eggs','','4006381333931',NULL,NULL,NULL,0,1,'2026-11-20T09:00:00Z','2026-11-20T09:00:00Z',NULL,replace('牛乳\n','\n',char(10)),NULL,NULL);
CREATE TABLE single_use_link (
    id INTEGER PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('invitation', 'password_reset')),
    token_hash BLOB NOT NULL UNIQUE,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    -- password_reset: whose password
    member_id INTEGER REFERENCES member(id) ON DELETE CASCADE,
    -- invitation: the role it offers
    role TEXT CHECK (role IS NULL OR role IN ('owner', 'member', 'viewer')),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    CHECK ((purpose = 'invitation') = (role IS NOT NULL)),
    CHECK ((purpose = 'password_reset') = (member_id IS NOT NULL))
);
INSERT INTO single_use_link VALUES(1,'invitation',X'f84fc070144c500806defb6c8293c1ef9773be6cc48324675426f68e7bc0d802',1,NULL,'member','2026-11-20T08:00:00Z','2026-11-27T08:00:00Z','2026-11-20T08:00:00Z');
INSERT INTO single_use_link VALUES(2,'invitation',X'f1160ad0bbae7787588b3fc5e558da33d95ccbb7dd488936eb2ef2b93da5711e',1,NULL,'viewer','2026-11-20T08:00:00Z','2026-11-27T08:00:00Z','2026-11-20T08:00:00Z');
INSERT INTO single_use_link VALUES(3,'invitation',X'0d5d8ea10113915f7001b03379a08a56d44b2fbb8a22ffdd55e8c02724fd4de6',1,NULL,'member','2026-11-20T08:00:00Z','2026-11-27T08:00:00Z',NULL);
CREATE TABLE login_throttle (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure_at TEXT NOT NULL,
    locked_until TEXT
);
CREATE TABLE item_event (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
    member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
    kind TEXT NOT NULL CHECK (kind IN ('created', 'changed', 'moved', 'quantity', 'opened', 'bought', 'deleted', 'restored')),
    detail TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL
);
INSERT INTO item_event VALUES(1,1,1,1,'created','Fridge','2026-11-20T08:00:00Z');
INSERT INTO item_event VALUES(2,1,2,1,'created','Fridge','2026-11-20T08:00:00Z');
INSERT INTO item_event VALUES(3,1,3,1,'created','Fridge','2026-11-20T08:00:00Z');
INSERT INTO item_event VALUES(4,1,2,1,'quantity','6 → 4','2026-11-20T09:00:00Z');
INSERT INTO item_event VALUES(5,1,1,1,'opened','','2026-11-20T09:00:00Z');
INSERT INTO item_event VALUES(6,1,4,1,'created','Supermarket','2026-11-20T09:00:00Z');
INSERT INTO item_event VALUES(7,1,3,1,'deleted','','2026-11-20T09:00:00Z');
CREATE TABLE calendar_feed (
    member_id INTEGER PRIMARY KEY REFERENCES member(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
INSERT INTO calendar_feed VALUES(1,X'46db9a732e0da42eb2d595350e91f75a5dba62d9a91612015d1f87fe011b2fec','2026-11-20T09:00:00Z');
CREATE TABLE push_channel (
    household_id INTEGER PRIMARY KEY REFERENCES household(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('ntfy', 'webhook')),
    url TEXT NOT NULL CHECK (url GLOB 'http://?*' OR url GLOB 'https://?*'),
    topic TEXT NOT NULL DEFAULT '',
    -- Sent as a Bearer token; needed in clear to send, never shown back.
    access_token TEXT,
    -- Local hour (household time zone) of the daily digest, or none.
    digest_hour INTEGER CHECK (digest_hour IS NULL OR digest_hour BETWEEN 0 AND 23),
    -- The household's local day the last digest was made for.
    digest_sent_on TEXT,
    updated_at TEXT NOT NULL
);
INSERT INTO push_channel VALUES(1,'ntfy','https://ntfy.example','zaiko-home',NULL,8,'2026-11-20','2026-11-20T09:00:00Z');
CREATE TABLE push_message (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'digest', 'test')),
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    -- JSON: [{"name", "due", "folder"}], nothing more about an item ever leaves.
    items TEXT NOT NULL DEFAULT '[]',
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE TABLE photo (
    key TEXT PRIMARY KEY CHECK (length(key) = 32),
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    format TEXT NOT NULL CHECK (format IN ('jpeg', 'webp')),
    created_at TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO photo VALUES('d5c7d4e6066b9ca6d30a27c1ee767c55',1,'jpeg','2026-11-20T08:00:00Z');
CREATE TABLE product (
    id INTEGER PRIMARY KEY,
    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
    barcode TEXT NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    photo TEXT,
    illustration TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('meat', 'fish', 'vegetables', 'fruit', 'dairy_eggs', 'drinks', 'seasonings', 'prepared', 'other')),
    unit TEXT NOT NULL CHECK (unit IN ('piece', 'pack', 'bottle', 'can', 'bag', 'box', 'g', 'kg', 'ml', 'L')),
    folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (household_id, barcode)
);
INSERT INTO product VALUES(1,1,'4006381333931','牛乳','d5c7d4e6066b9ca6d30a27c1ee767c55',NULL,'dairy_eggs','L',1,'2026-11-20T08:00:00Z');
CREATE TABLE health_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
);
INSERT INTO health_check VALUES(1,'');
CREATE INDEX member_by_household ON member(household_id);
CREATE INDEX session_by_member ON session(member_id);
CREATE INDEX folder_order ON folder(household_id, position);
CREATE INDEX item_stock_order ON item(folder_id, due IS NULL, due, name) WHERE deleted_at IS NULL;
CREATE INDEX item_shopping_order ON item(folder_id, urgent DESC, name) WHERE deleted_at IS NULL;
CREATE INDEX item_due ON item(household_id, due) WHERE deleted_at IS NULL AND due IS NOT NULL;
CREATE INDEX item_trash ON item(household_id, deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX single_use_link_by_household ON single_use_link(household_id);
CREATE INDEX item_event_by_item ON item_event(item_id, at);
CREATE INDEX item_due_by_folder ON item(folder_id, due) WHERE deleted_at IS NULL AND due IS NOT NULL;
CREATE INDEX item_reminder_pending ON item(remind_at)
    WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at;
CREATE INDEX push_message_due ON push_message(next_attempt_at) WHERE state = 'pending';
CREATE INDEX push_message_by_household ON push_message(household_id, id);
CREATE INDEX item_by_photo ON item(photo) WHERE photo IS NOT NULL;
CREATE INDEX product_by_photo ON product(photo) WHERE photo IS NOT NULL;
CREATE INDEX item_search ON item(household_id, folder_id, search_text) WHERE deleted_at IS NULL;
CREATE TRIGGER item_counted_on_insert AFTER INSERT ON item WHEN NEW.deleted_at IS NULL BEGIN
    UPDATE folder SET item_count = item_count + 1 WHERE id = NEW.folder_id;
END;
CREATE TRIGGER item_counted_on_delete AFTER DELETE ON item WHEN OLD.deleted_at IS NULL BEGIN
    UPDATE folder SET item_count = item_count - 1 WHERE id = OLD.folder_id;
END;
CREATE TRIGGER item_counted_on_update AFTER UPDATE OF folder_id, deleted_at ON item BEGIN
    UPDATE folder SET item_count = item_count - 1 WHERE id = OLD.folder_id AND OLD.deleted_at IS NULL;
    UPDATE folder SET item_count = item_count + 1 WHERE id = NEW.folder_id AND NEW.deleted_at IS NULL;
END;
COMMIT;
