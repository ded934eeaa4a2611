import GRDB

/// Append-only, named migrations. A shipped migration never changes; add a new one.
/// Their SQL is literal text: the CHECK lists in v1 and v6 are written out, not built from
/// `ItemUnit`, `ItemKind` and `ItemStatus`, so changing an enum later changes what the app accepts,
/// never a shipped migration (a new unit needs a migration of its own). `ShippedSchemaTests` holds
/// the schema they make.
enum Schema {

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 households, members, sessions, folders, items", migrate: v1)
        migrator.registerMigration("v2 single-use links, login throttling, remembered sessions", migrate: v2)
        migrator.registerMigration("v3 item history, folder trash, search text", migrate: v3)
        migrator.registerMigration("v4 folder item counts, due dates by folder", migrate: v4)
        migrator.registerMigration("v5 reminders, calendar feeds, push channels", migrate: v5)
        migrator.registerMigration("v6 photos, illustrations, product memory", migrate: v6)
        migrator.registerMigration("v7 health check", migrate: v7)
        migrator.registerMigration("v8 starter folders named in each reader's language", migrate: v8)
        migrator.registerMigration("v9 household search", migrate: v9)
        migrator.registerMigration("v10 backup status", migrate: v10)
        migrator.registerMigration("v11 recipes and cooking", migrate: v11)
        migrator.registerMigration("v12 search text with composed voiced marks", migrate: v12)
        migrator.registerMigration("v13 what can we make: ingredient indexes and recipes version", migrate: v13)
        migrator.registerMigration("v14 trusted sign-in devices, members' fetches to the home network", migrate: v14)
        migrator.registerMigration("v15 history names folders by id", migrate: v15)
        migrator.registerMigration("v16 change feed, in the basket", migrate: v16)
        migrator.registerMigration("v17 actions sent again from a phone apply once", migrate: v17)
        migrator.registerMigration("v18 shelf life learned per product", migrate: v18)
        migrator.registerMigration("v19 keep rules: what to keep in stock", migrate: v19)
        migrator.registerMigration("v20 use and waste ledger", migrate: v20)
        migrator.registerMigration("v21 the meal plan", migrate: v21)
        migrator.registerMigration("v22 the change feed records meals", migrate: v22)
        migrator.registerMigration("v23 the − / + step learned from use, shelf lives set by hand", migrate: v23)
        migrator.registerMigration("v24 personal access tokens for the API, idempotent API writes", migrate: v24)
        migrator.registerMigration("v25 an idempotent API write is marked done in its own transaction", migrate: v25)
        return migrator
    }

    static func v1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE household (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    time_zone TEXT NOT NULL DEFAULT 'UTC',
                    due_soon_days INTEGER NOT NULL DEFAULT 3 CHECK (due_soon_days BETWEEN 0 AND 60),
                    created_at TEXT NOT NULL
                );

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
                CREATE INDEX member_by_household ON member(household_id);

                CREATE TABLE session (
                    id INTEGER PRIMARY KEY,
                    member_id INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    token_hash BLOB NOT NULL UNIQUE,
                    csrf_token TEXT NOT NULL,
                    user_agent TEXT NOT NULL DEFAULT '',
                    created_at TEXT NOT NULL,
                    last_seen_at TEXT NOT NULL,
                    expires_at TEXT NOT NULL
                );
                CREATE INDEX session_by_member ON session(member_id);

                CREATE TABLE folder (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    kind TEXT NOT NULL CHECK (kind IN ('stock', 'shopping')),
                    icon TEXT NOT NULL DEFAULT 'box',
                    position INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    -- lets item reference (household, folder) together: no item in another household's folder
                    UNIQUE (household_id, id)
                );
                CREATE INDEX folder_order ON folder(household_id, position);

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
                    deleted_at TEXT,
                    FOREIGN KEY (household_id, folder_id) REFERENCES folder(household_id, id) ON DELETE CASCADE
                );
                -- Stock lists: earliest due first, no due date last, then by name.
                CREATE INDEX item_stock_order ON item(folder_id, due IS NULL, due, name) WHERE deleted_at IS NULL;
                -- Shopping lists: urgent first, then by name.
                CREATE INDEX item_shopping_order ON item(folder_id, urgent DESC, name) WHERE deleted_at IS NULL;
                -- Due-soon and expired counts across a household.
                CREATE INDEX item_due ON item(household_id, due) WHERE deleted_at IS NULL AND due IS NOT NULL;
                CREATE INDEX item_trash ON item(household_id, deleted_at) WHERE deleted_at IS NOT NULL;
                """)
    }

    static func v2(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Invitations and password resets: a link that works once, until it expires.
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
                CREATE INDEX single_use_link_by_household ON single_use_link(household_id);

                -- Failed logins per key ("login:<name>" or "peer:<address>").
                CREATE TABLE login_throttle (
                    key TEXT PRIMARY KEY,
                    failures INTEGER NOT NULL,
                    last_failure_at TEXT NOT NULL,
                    locked_until TEXT
                );

                ALTER TABLE session ADD COLUMN remember INTEGER NOT NULL DEFAULT 0;
                """)
    }

    static func v3(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A deleted folder waits in the trash with its items, so restoring an item has a folder.
                ALTER TABLE folder ADD COLUMN deleted_at TEXT;
                -- Shopping lists remember which stock folder bought items went to last.
                ALTER TABLE folder ADD COLUMN last_stock_folder_id INTEGER;
                -- Name and note folded for search (NFKC, lower case): Ｍｉｌｋ finds milk, 牛乳 finds 牛乳.
                ALTER TABLE item ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

                CREATE TABLE item_event (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('created', 'changed', 'moved', 'quantity', 'opened', 'bought', 'deleted', 'restored')),
                    detail TEXT NOT NULL DEFAULT '',
                    at TEXT NOT NULL
                );
                CREATE INDEX item_event_by_item ON item_event(item_id, at);
                """)
        for row in try Row.fetchAll(db, sql: "SELECT id, name, note FROM item") {
            try db.execute(
                sql: "UPDATE item SET search_text = ? WHERE id = ?",
                arguments: [SearchText.fold(row["name"], row["note"]), row["id"] as Int64])
        }
    }

    static func v4(_ db: Database) throws {
        try db.execute(
            sql: """
                -- The folders page counts expired and due-soon items per folder: a range in this index.
                CREATE INDEX item_due_by_folder ON item(folder_id, due) WHERE deleted_at IS NULL AND due IS NOT NULL;

                -- Items per folder (not in the trash), kept by triggers so no page counts a whole folder.
                ALTER TABLE folder ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
                UPDATE folder SET item_count = (SELECT COUNT(*) FROM item WHERE item.folder_id = folder.id AND item.deleted_at IS NULL);
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
                """)
    }

    static func v5(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A reminder is pending while remind_at differs from the value last sent: editing the
                -- date makes it pending again, clearing it or trashing the item leaves nothing to send.
                ALTER TABLE item ADD COLUMN reminder_sent_for TEXT;
                -- Reminders that were due before the engine existed are not sent all at once on upgrade.
                UPDATE item SET reminder_sent_for = remind_at
                    WHERE remind_at IS NOT NULL AND remind_at <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
                -- The engine's next instant and the due reminders: a range in this index.
                CREATE INDEX item_reminder_pending ON item(remind_at)
                    WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at;

                -- The language the household was set up in: push messages use it when the first owner
                -- has not chosen one (they go to a shared phone topic, not to one reader).
                ALTER TABLE household ADD COLUMN language TEXT;

                -- Each member's secret calendar feed address; only the token's hash is stored.
                CREATE TABLE calendar_feed (
                    member_id INTEGER PRIMARY KEY REFERENCES member(id) ON DELETE CASCADE,
                    token_hash BLOB NOT NULL UNIQUE,
                    created_at TEXT NOT NULL
                );

                -- The household's push channel: an ntfy server and topic, or a JSON webhook.
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

                -- Messages on their way out, kept until sent so a restart or a failure loses none.
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
                CREATE INDEX push_message_due ON push_message(next_attempt_at) WHERE state = 'pending';
                CREATE INDEX push_message_by_household ON push_message(household_id, id);
                """)
    }

    static func v6(_ db: Database) throws {
        try db.execute(
            sql: """
                -- An item's picture is a stored photo or one of the built-in illustrations (never both).
                ALTER TABLE item ADD COLUMN illustration TEXT;

                -- Photos on disk (<data>/photos/<key>-512.<ext>, <key>-128.<ext>). The files exist before the
                -- row is committed; a photo nothing uses any more is removed by PhotoStore.collectGarbage.
                CREATE TABLE photo (
                    key TEXT PRIMARY KEY CHECK (length(key) = 32),
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    format TEXT NOT NULL CHECK (format IN ('jpeg', 'webp')),
                    created_at TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX item_by_photo ON item(photo) WHERE photo IS NOT NULL;

                -- What the household learned about a barcode, so the next scan fills the form.
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
                CREATE INDEX product_by_photo ON product(photo) WHERE photo IS NOT NULL;

                -- Where unknown barcodes are looked up online (Open Food Facts' API shape); NULL: never.
                ALTER TABLE household ADD COLUMN product_lookup_url TEXT;
                """)
    }

    static func v7(_ db: Database) throws {
        try db.execute(
            sql: """
                -- /healthz commits a write to this one row: a database that reads but cannot write
                -- (read-only, failing disk) is not healthy.
                CREATE TABLE health_check (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    checked_at TEXT NOT NULL
                );
                INSERT INTO health_check (id, checked_at) VALUES (1, '');
                """)
    }

    static func v8(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A starter folder keeps its catalog key ('starter_fridge') until someone renames it: until
                -- then each member reads its name in their own language; a rename clears it.
                ALTER TABLE folder ADD COLUMN starter TEXT;
                -- Households made before: the folders still named as they were made (English or Japanese).
                UPDATE folder SET starter = 'starter_fridge' WHERE kind = 'stock' AND icon = 'fridge' AND name IN ('Fridge', '冷蔵庫');
                UPDATE folder SET starter = 'starter_freezer' WHERE kind = 'stock' AND icon = 'freezer' AND name IN ('Freezer', '冷凍庫');
                UPDATE folder SET starter = 'starter_pantry' WHERE kind = 'stock' AND icon = 'pantry' AND name IN ('Pantry', 'パントリー');
                UPDATE folder SET starter = 'starter_supermarket' WHERE kind = 'shopping' AND icon = 'cart' AND name IN ('Supermarket', 'スーパー');
                """)
    }

    static func v9(_ db: Database) throws {
        try db.execute(
            sql: """
                -- The folders page searches the whole household (Items.search): a substring has no
                -- b-tree range, so the LIKE is decided on this household's narrow index entries and
                -- the table is read for the matches only.
                CREATE INDEX item_search ON item(household_id, folder_id, search_text) WHERE deleted_at IS NULL;
                """)
    }

    static func v10(_ db: Database) throws {
        try db.execute(
            sql: """
                -- The server's automatic backups, one row: owners read it in Settings. In the database, not
                -- in the backup folder, because the folder may be the thing that is gone, and a failure's
                -- push messages are queued in the same transaction that records it.
                CREATE TABLE backup_status (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    -- The next scheduled backup; NULL while no running server makes them (--no-backup).
                    next_at TEXT,
                    last_success_at TEXT,
                    last_success_file TEXT,
                    last_failure_at TEXT,
                    -- disk_full, folder_missing, not_writable or other; the details go to the log.
                    last_failure_reason TEXT CHECK (last_failure_reason IN ('disk_full', 'folder_missing', 'not_writable', 'other'))
                );
                INSERT INTO backup_status (id) VALUES (1);

                -- A failed backup is pushed to each household with a channel: a new kind of message.
                -- SQLite cannot change a CHECK, so the outbox is rebuilt with its rows and indexes.
                CREATE TABLE push_message_v10 (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'digest', 'test', 'backup_failed')),
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    items TEXT NOT NULL DEFAULT '[]',
                    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at TEXT NOT NULL,
                    last_error TEXT,
                    created_at TEXT NOT NULL,
                    sent_at TEXT
                );
                INSERT INTO push_message_v10 (id, household_id, kind, title, body, items, state, attempts, next_attempt_at, last_error, created_at, sent_at)
                    SELECT id, household_id, kind, title, body, items, state, attempts, next_attempt_at, last_error, created_at, sent_at FROM push_message;
                DROP TABLE push_message;
                ALTER TABLE push_message_v10 RENAME TO push_message;
                CREATE INDEX push_message_due ON push_message(next_attempt_at) WHERE state = 'pending';
                CREATE INDEX push_message_by_household ON push_message(household_id, id);
                """)
    }

    static func v11(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A recipe: what a household cooks from its stock (see Recipes). Trash like items.
                CREATE TABLE recipe (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    -- SearchText.fold(name): the text filter of /recipes.
                    name_folded TEXT NOT NULL,
                    photo TEXT,
                    illustration TEXT,
                    servings INTEGER NOT NULL DEFAULT 2 CHECK (servings BETWEEN 1 AND 100),
                    -- Plain text; paragraphs are separated by a blank line.
                    steps TEXT NOT NULL DEFAULT '',
                    source_url TEXT,
                    -- What cooking it makes (a juice): added to produce_folder_id, due produce_due_days later.
                    produce_name TEXT CHECK (produce_name IS NULL OR length(produce_name) BETWEEN 1 AND 100),
                    produce_quantity REAL CHECK (produce_quantity IS NULL OR produce_quantity > 0),
                    produce_unit TEXT CHECK (produce_unit IS NULL OR produce_unit IN ('piece', 'pack', 'bottle', 'can', 'bag', 'box', 'g', 'kg', 'ml', 'L')),
                    produce_kind TEXT CHECK (produce_kind IS NULL OR produce_kind IN ('meat', 'fish', 'vegetables', 'fruit', 'dairy_eggs', 'drinks', 'seasonings', 'prepared', 'other')),
                    produce_due_days INTEGER CHECK (produce_due_days IS NULL OR produce_due_days BETWEEN 0 AND 3650),
                    produce_folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    deleted_at TEXT,
                    -- lets ingredients reference (household, recipe) together
                    UNIQUE (household_id, id)
                );
                CREATE INDEX recipe_by_name ON recipe(household_id, name_folded) WHERE deleted_at IS NULL;
                CREATE INDEX recipe_trash ON recipe(household_id, deleted_at) WHERE deleted_at IS NOT NULL;
                CREATE INDEX recipe_by_photo ON recipe(photo) WHERE photo IS NOT NULL;

                -- An ingredient names what it needs the way items are named (matched after folding), or
                -- a remembered product (every item with its barcode). No amount: only needs to be there.
                CREATE TABLE recipe_ingredient (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL,
                    recipe_id INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    -- SearchText.fold(name): equal to the start of a matching item's search_text.
                    name_folded TEXT NOT NULL,
                    amount REAL CHECK (amount IS NULL OR amount > 0),
                    unit TEXT CHECK (unit IS NULL OR unit IN ('piece', 'pack', 'bottle', 'can', 'bag', 'box', 'g', 'kg', 'ml', 'L', 'tbsp', 'tsp', 'cup', 'pinch', 'to_taste')),
                    note TEXT NOT NULL DEFAULT '',
                    product_id INTEGER REFERENCES product(id) ON DELETE SET NULL,
                    FOREIGN KEY (household_id, recipe_id) REFERENCES recipe(household_id, id) ON DELETE CASCADE
                );
                CREATE INDEX recipe_ingredient_by_recipe ON recipe_ingredient(recipe_id, position);
                -- ?ingredient=牛乳 and the household's distinct ingredient names.
                CREATE INDEX recipe_ingredient_by_name ON recipe_ingredient(household_id, name_folded);
                CREATE INDEX recipe_ingredient_by_product ON recipe_ingredient(product_id) WHERE product_id IS NOT NULL;

                -- Kinds and tags to filter recipes by ("和食", "juice", "weekday"). A rowid table: SQLite 3.40's
                -- integrity_check reports a NOT NULL column that follows the key's columns in a WITHOUT ROWID
                -- table as NULL, and Zaiko refuses to open a database that fails the check.
                CREATE TABLE recipe_tag (
                    recipe_id INTEGER NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 40),
                    PRIMARY KEY (recipe_id, tag)
                );
                CREATE INDEX recipe_tag_by_household ON recipe_tag(household_id, tag, recipe_id);

                -- An ingredient finds its items by name: item.search_text is fold(name) + newline + fold(note),
                -- so the items named X are the range [X + char(10), X + char(11)) of this index.
                CREATE INDEX item_by_folded_name ON item(household_id, search_text) WHERE deleted_at IS NULL;
                -- An ingredient linked to a remembered product finds the items with its barcode.
                CREATE INDEX item_by_barcode ON item(household_id, barcode) WHERE deleted_at IS NULL AND barcode IS NOT NULL;

                -- One cooking of a recipe: what it took from which item, so that it can be undone.
                CREATE TABLE cook (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    recipe_id INTEGER REFERENCES recipe(id) ON DELETE SET NULL,
                    -- The recipe's name when cooked: the history still reads after the recipe is gone.
                    recipe_name TEXT NOT NULL,
                    member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
                    servings INTEGER NOT NULL CHECK (servings BETWEEN 1 AND 1000),
                    produced_item_id INTEGER REFERENCES item(id) ON DELETE SET NULL,
                    cooked_at TEXT NOT NULL,
                    undone_at TEXT
                );
                CREATE INDEX cook_by_household ON cook(household_id, cooked_at);

                CREATE TABLE cook_take (
                    id INTEGER PRIMARY KEY,
                    cook_id INTEGER NOT NULL REFERENCES cook(id) ON DELETE CASCADE,
                    item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    ingredient_name TEXT NOT NULL,
                    -- In the item's own unit.
                    amount REAL NOT NULL CHECK (amount >= 0),
                    -- What happened to an item the cook used up: NULL (some is left), trashed, or moved to
                    -- a shopping list; a move drops the stock fields, kept here for the undo.
                    used_up TEXT CHECK (used_up IS NULL OR used_up IN ('trashed', 'moved')),
                    from_folder_id INTEGER,
                    due TEXT,
                    remind_at TEXT,
                    status TEXT
                );
                CREATE INDEX cook_take_by_cook ON cook_take(cook_id);
                CREATE INDEX cook_take_by_item ON cook_take(item_id);

                -- An item's history names the cook that changed it: Undo from the item page.
                ALTER TABLE item_event ADD COLUMN cook_id INTEGER REFERENCES cook(id) ON DELETE SET NULL;

                -- What happens to an item a cook uses up: to the trash, or moved to a shopping list.
                ALTER TABLE household ADD COLUMN used_up TEXT NOT NULL DEFAULT 'trash' CHECK (used_up IN ('trash', 'shopping'));
                ALTER TABLE household ADD COLUMN used_up_folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL;
                """)
    }

    /// Text folded before `SearchText.fold` composed its result again (half-width ｷﾞ was stored as
    /// キ + U+3099 and never matched ギ): folded anew. The schema does not change.
    static func v12(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name, note, search_text FROM item") {
            let folded = SearchText.fold(row["name"], row["note"])
            // Bytes, not Strings: Swift calls the two forms equal.
            if Array(folded.utf8) != Array((row["search_text"] as String).utf8) {
                try db.execute(sql: "UPDATE item SET search_text = ? WHERE id = ?", arguments: [folded, row["id"] as Int64])
            }
        }
        for table in ["recipe", "recipe_ingredient"] {
            for row in try Row.fetchAll(db, sql: "SELECT id, name, name_folded FROM \(table)") {
                let folded = SearchText.fold(row["name"])
                if Array(folded.utf8) != Array((row["name_folded"] as String).utf8) {
                    try db.execute(sql: "UPDATE \(table) SET name_folded = ? WHERE id = ?", arguments: [folded, row["id"] as Int64])
                }
            }
        }
    }

    /// /recipes reads every ingredient of the household in recipe order from an index alone (2,000
    /// seeks into the table cost more than the rest of the page), and keeps what it read in memory
    /// until `household.recipes_version` moves: triggers move it on every change to a recipe, an
    /// ingredient or a tag, whoever writes (the server, an import, another process).
    static func v13(_ db: Database) throws {
        var sql = """
            DROP INDEX recipe_ingredient_by_name;
            CREATE INDEX recipe_ingredient_by_name ON recipe_ingredient(household_id, name_folded, product_id);
            CREATE INDEX recipe_ingredient_by_household
                ON recipe_ingredient(household_id, recipe_id, position, name_folded, name, amount, unit, product_id);
            ALTER TABLE household ADD COLUMN recipes_version INTEGER NOT NULL DEFAULT 0;

            """
        for table in ["recipe", "recipe_ingredient", "recipe_tag"] {
            for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                sql += """
                    CREATE TRIGGER \(table)_\(event.lowercased())_moves_recipes_version AFTER \(event) ON \(table) BEGIN
                        UPDATE household SET recipes_version = recipes_version + 1 WHERE id = \(row).household_id;
                    END;

                    """
            }
        }
        try db.execute(sql: sql)
    }

    /// Browsers that signed in to a member's account before (only a hash of the device cookie's
    /// token): they are exempt from the account-wide sign-in bucket that a spray from many
    /// addresses fills. And whether the household's owner lets members' fetches (recipe import,
    /// barcode look-up) reach addresses on the home network; off unless the owner turns it on.
    static func v14(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE trusted_device (
                    member_id INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    token_hash BLOB NOT NULL,
                    created_at TEXT NOT NULL,
                    last_used_at TEXT NOT NULL,
                    PRIMARY KEY (member_id, token_hash)
                ) WITHOUT ROWID;
                CREATE INDEX trusted_device_by_token ON trusted_device(token_hash);

                ALTER TABLE household ADD COLUMN member_fetches_private INTEGER NOT NULL DEFAULT 0;
                """)
    }

    /// A move or a purchase in an item's history keeps the folders' ids, so each reader sees the
    /// names in their own language and under their current name (a starter folder reads 冷蔵庫 to a
    /// Japanese member, "Fridge" to an English one). No foreign key: a folder purged from the trash
    /// leaves its id behind and the page says the folder is gone. Older lines keep their text.
    static func v15(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE item_event ADD COLUMN from_folder_id INTEGER;
                ALTER TABLE item_event ADD COLUMN to_folder_id INTEGER;
                """)
    }

    /// The change feed (see `ChangeFeed`): every change to a household's folders, items, products and
    /// recipes advances `household.change_sequence` and leaves a `change_record`, by triggers, so that
    /// every writer is covered (the server, an import, sqlite3 by hand). Who made a change and when
    /// come from `change_actor`, the one row a named write (`AppDatabase.write(by:at:)`) sets at the
    /// start of its transaction and clears at its end; without it the member is NULL and the time
    /// SQLite's clock. A record is one row's change, with these exceptions: an update that changes
    /// nothing shown (an item's `reminder_sent_for`, a folder's `item_count`, a product's
    /// `updated_at`) leaves none, and an ingredient's or tag's change is the recipe's, recorded once
    /// when the same named write's newest record is already that recipe's. Each record written
    /// removes at most one, its household's oldest, when that is 5,000 records or 14 days older: the
    /// feed stays bounded without a job, and its records stay numbered without gaps (a reader that
    /// asks for an older number than the oldest kept has missed some).
    ///
    /// And "in the basket": a ticked row of a shopping list, shared by every shopper, and who ticked it.
    static func v16(_ db: Database) throws {
        var sql = """
            ALTER TABLE household ADD COLUMN change_sequence INTEGER NOT NULL DEFAULT 0;

            CREATE TABLE change_record (
                household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                -- The household's change_sequence after this change: 1, 2, 3… per household.
                seq INTEGER NOT NULL,
                entity TEXT NOT NULL CHECK (entity IN ('folder', 'item', 'product', 'recipe')),
                entity_id INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('created', 'changed', 'deleted')),
                -- Items' and recipes' version after the change.
                version INTEGER,
                -- Items: the folder before the change (NULL when created) and after it (NULL when deleted).
                from_folder_id INTEGER,
                to_folder_id INTEGER,
                -- Folders, items and recipes: in the trash after the change (moving there is a change).
                in_trash INTEGER NOT NULL DEFAULT 0 CHECK (in_trash IN (0, 1)),
                member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (household_id, seq)
            );

            -- The named write under way: who and when, and the last record before it (its own come after).
            CREATE TABLE change_actor (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                member_id INTEGER,
                at TEXT NOT NULL,
                records_before INTEGER NOT NULL
            );

            CREATE TRIGGER change_record_numbered AFTER INSERT ON change_record BEGIN
                UPDATE household SET change_sequence = NEW.seq WHERE id = NEW.household_id;
                DELETE FROM change_record WHERE household_id = NEW.household_id
                    AND seq = (SELECT MIN(seq) FROM change_record WHERE household_id = NEW.household_id)
                    AND seq < NEW.seq AND (seq <= NEW.seq - 5000 OR at < strftime('%Y-%m-%dT%H:%M:%SZ', NEW.at, '-14 days'));
            END;

            ALTER TABLE item ADD COLUMN in_basket INTEGER NOT NULL DEFAULT 0 CHECK (in_basket IN (0, 1));
            ALTER TABLE item ADD COLUMN in_basket_by INTEGER REFERENCES member(id) ON DELETE SET NULL;
            -- The shopping lists' "N in the basket".
            CREATE INDEX item_in_basket ON item(household_id, folder_id) WHERE in_basket = 1 AND deleted_at IS NULL;

            """
        /// The statement that records one change of `entity`: each argument is SQL over the trigger's NEW and OLD.
        func record(
            _ entity: String, _ kind: String, id: String, household: String, version: String = "NULL", from: String = "NULL", to: String = "NULL",
            inTrash: String = "0"
        ) -> String {
            """
                INSERT INTO change_record (household_id, seq, entity, entity_id, kind, version, from_folder_id, to_folder_id, in_trash, member_id, at)
                    SELECT h.id, h.change_sequence + 1, '\(entity)', \(id), '\(kind)', \(version), \(from), \(to), \(inTrash), a.member_id,
                        COALESCE(a.at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                    FROM household h LEFT JOIN change_actor a ON a.id = 1 WHERE h.id = \(household);
            """
        }
        /// A trigger per row event of `table`, each running `record(kind, row)` (row: NEW, or OLD for a
        /// delete); an update counts only when one of the `shown` columns changed.
        func triggers(_ table: String, shown: [String], record: (_ kind: String, _ row: String) -> String) -> String {
            let changed = shown.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
            return """
                CREATE TRIGGER \(table)_insert_recorded AFTER INSERT ON \(table) BEGIN
                \(record("created", "NEW"))
                END;
                CREATE TRIGGER \(table)_update_recorded AFTER UPDATE OF \(shown.joined(separator: ", ")) ON \(table)
                    WHEN \(changed) BEGIN
                \(record("changed", "NEW"))
                END;
                CREATE TRIGGER \(table)_delete_recorded AFTER DELETE ON \(table) BEGIN
                \(record("deleted", "OLD"))
                END;

                """
        }
        sql += triggers("folder", shown: ["name", "kind", "icon", "position", "starter", "deleted_at"]) { kind, row in
            record("folder", kind, id: "\(row).id", household: "\(row).household_id", inTrash: kind == "deleted" ? "0" : "\(row).deleted_at IS NOT NULL")
        }
        let itemShown = [
            "version", "folder_id", "deleted_at", "name", "photo", "illustration", "quantity", "unit", "kind", "note", "barcode", "due", "remind_at",
            "status", "urgent", "in_basket", "in_basket_by",
        ]
        sql += triggers("item", shown: itemShown) { kind, row in
            record(
                "item", kind, id: "\(row).id", household: "\(row).household_id", version: "\(row).version",
                from: kind == "created" ? "NULL" : "OLD.folder_id", to: kind == "deleted" ? "NULL" : "NEW.folder_id",
                inTrash: kind == "deleted" ? "0" : "NEW.deleted_at IS NOT NULL")
        }
        sql += triggers("product", shown: ["barcode", "name", "photo", "illustration", "kind", "unit", "folder_id"]) { kind, row in
            record("product", kind, id: "\(row).id", household: "\(row).household_id")
        }
        let recipeShown = [
            "version", "deleted_at", "name", "photo", "illustration", "servings", "steps", "source_url", "produce_name", "produce_quantity",
            "produce_unit", "produce_kind", "produce_due_days", "produce_folder_id",
        ]
        sql += triggers("recipe", shown: recipeShown) { kind, row in
            record(
                "recipe", kind, id: "\(row).id", household: "\(row).household_id", version: "\(row).version",
                inTrash: kind == "deleted" ? "0" : "\(row).deleted_at IS NOT NULL")
        }
        // An ingredient or a tag changes its recipe, while the recipe is there (not when it goes with it).
        for (table, shown) in [
            ("recipe_ingredient", ["recipe_id", "position", "name", "amount", "unit", "note", "product_id"]), ("recipe_tag", ["recipe_id", "tag"]),
        ] {
            sql += triggers(table, shown: shown) { _, row in
                """
                    INSERT INTO change_record (household_id, seq, entity, entity_id, kind, version, from_folder_id, to_folder_id, in_trash, member_id, at)
                        SELECT h.id, h.change_sequence + 1, 'recipe', r.id, 'changed', r.version, NULL, NULL, r.deleted_at IS NOT NULL, a.member_id,
                            COALESCE(a.at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                        FROM recipe r JOIN household h ON h.id = r.household_id LEFT JOIN change_actor a ON a.id = 1
                        WHERE r.id = \(row).recipe_id AND NOT EXISTS (
                            SELECT 1 FROM change_record c WHERE c.household_id = h.id AND c.seq = h.change_sequence
                                AND c.entity = 'recipe' AND c.entity_id = r.id AND c.rowid > a.records_before);
                """
            }
        }
        try db.execute(sql: sql)
    }

    static func v17(_ db: Database) throws {
        try db.execute(
            sql: """
                -- The actions a member's phone made and sent (an id made on the phone each): one sent
                -- again, because its answer was lost on the way, is recognised and not applied twice.
                -- Each member keeps their newest 5,000 (see `AppDatabase.write(by:at:intent:)`).
                CREATE TABLE applied_intent (
                    member_id INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    intent_id TEXT NOT NULL CHECK (length(intent_id) BETWEEN 8 AND 64),
                    applied_at TEXT NOT NULL
                );
                CREATE UNIQUE INDEX applied_intent_by_member ON applied_intent(member_id, intent_id);
                """)
    }
}

extension Schema {
    static func v18(_ db: Database) throws {
        try db.execute(
            sql: """
                -- How long each registration of a product was given: its due date less the day it went
                -- into a stock list (`ShelfLife`). The median of a product's last ones is the due date
                -- the Bought page, a re-scan and the editor suggest. A product is its barcode, else its
                -- folded name and unit. An item deleted for good leaves its samples (item_id NULL).
                CREATE TABLE shelf_life (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    product_key TEXT NOT NULL CHECK (length(product_key) BETWEEN 3 AND 420),
                    folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL,
                    item_id INTEGER UNIQUE REFERENCES item(id) ON DELETE SET NULL,
                    registered_on TEXT NOT NULL CHECK (registered_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    days INTEGER NOT NULL,
                    at TEXT NOT NULL
                );
                CREATE INDEX shelf_life_by_product ON shelf_life(household_id, product_key, id);
                CREATE INDEX shelf_life_by_folder ON shelf_life(folder_id);
                """)
    }

    static func v19(_ db: Database) throws {
        try db.execute(
            sql: """
                -- An item's name folded as search folds it (`KeepStock.nameKey`): with its unit, the
                -- product a keep rule counts. Written by `Item.Draft` on every save.
                ALTER TABLE item ADD COLUMN name_key TEXT NOT NULL DEFAULT '';

                -- What the household keeps in stock: at least `minimum` of a product (its folded name
                -- and unit) in its stock lists; under it, the shortfall up to `refill_to`, in whole
                -- packs of `pack`, goes on the household's keep list (`KeepStock`).
                CREATE TABLE keep_rule (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    name_key TEXT NOT NULL CHECK (length(name_key) BETWEEN 1 AND 400),
                    unit TEXT NOT NULL,
                    minimum REAL NOT NULL CHECK (minimum > 0 AND minimum <= 1000000),
                    refill_to REAL NOT NULL CHECK (refill_to >= minimum AND refill_to <= 1000000),
                    pack REAL NOT NULL DEFAULT 1 CHECK (pack > 0 AND pack <= 1000000),
                    kind TEXT NOT NULL DEFAULT 'other',
                    -- A person changed the rule's row or took it off the shopping list: nothing is
                    -- added before the stock has recovered once.
                    declined INTEGER NOT NULL DEFAULT 0 CHECK (declined IN (0, 1)),
                    created_at TEXT NOT NULL,
                    UNIQUE (household_id, name_key, unit)
                );

                -- A shopping row the rule put there, or added to: `refill_quantity` of its quantity is
                -- the rule's. A person's change of the row (its quantity, name, unit or list, or
                -- ticking it bought into stock) makes the whole row theirs.
                ALTER TABLE item ADD COLUMN keep_rule_id INTEGER REFERENCES keep_rule(id) ON DELETE SET NULL;
                ALTER TABLE item ADD COLUMN refill_quantity REAL;
                CREATE INDEX item_by_product ON item(household_id, name_key, unit) WHERE deleted_at IS NULL;
                -- A rule's rows (each check reads them; deleting a rule sets theirs to NULL).
                CREATE INDEX item_by_keep_rule ON item(keep_rule_id) WHERE keep_rule_id IS NOT NULL;

                -- Where refills go (nil or gone: the first shopping list), and whether expired items
                -- count as stock (they do not, unless the household says so).
                ALTER TABLE household ADD COLUMN keep_folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL;
                ALTER TABLE household ADD COLUMN keep_counts_expired INTEGER NOT NULL DEFAULT 0 CHECK (keep_counts_expired IN (0, 1));
                -- The household's day its rules were last checked at the start of (items expire overnight
                -- without a write): the reminder engine checks them again once a day.
                ALTER TABLE household ADD COLUMN keep_checked_on TEXT;

                -- Products a write touched that have a keep rule, checked before that write commits
                -- (`AppDatabase.write(by:at:)`): every writer's change is seen, and a product without a
                -- rule costs one indexed look-up.
                CREATE TABLE keep_check (
                    household_id INTEGER NOT NULL,
                    name_key TEXT NOT NULL,
                    unit TEXT NOT NULL,
                    PRIMARY KEY (household_id, name_key, unit)
                ) WITHOUT ROWID;
                CREATE TRIGGER keep_checked_on_insert AFTER INSERT ON item
                    WHEN EXISTS (SELECT 1 FROM keep_rule WHERE household_id = NEW.household_id AND name_key = NEW.name_key AND unit = NEW.unit) BEGIN
                    INSERT OR IGNORE INTO keep_check VALUES (NEW.household_id, NEW.name_key, NEW.unit);
                END;
                CREATE TRIGGER keep_checked_on_delete AFTER DELETE ON item
                    WHEN EXISTS (SELECT 1 FROM keep_rule WHERE household_id = OLD.household_id AND name_key = OLD.name_key AND unit = OLD.unit) BEGIN
                    INSERT OR IGNORE INTO keep_check VALUES (OLD.household_id, OLD.name_key, OLD.unit);
                END;
                CREATE TRIGGER keep_checked_on_update AFTER UPDATE OF name_key, unit, quantity, folder_id, deleted_at, due ON item
                    WHEN EXISTS (SELECT 1 FROM keep_rule WHERE household_id = OLD.household_id AND name_key = OLD.name_key AND unit = OLD.unit)
                        OR EXISTS (SELECT 1 FROM keep_rule WHERE household_id = NEW.household_id AND name_key = NEW.name_key AND unit = NEW.unit) BEGIN
                    INSERT OR IGNORE INTO keep_check VALUES (OLD.household_id, OLD.name_key, OLD.unit);
                    INSERT OR IGNORE INTO keep_check VALUES (NEW.household_id, NEW.name_key, NEW.unit);
                END;
                -- A person's change of a rule's row makes it theirs, and taking it off the list too: either
                -- way the person decided what to buy, and the rule adds nothing until the stock has
                -- recovered once. (The rule's own writes change `refill_quantity` with the quantity, and
                -- delete its rows outright.)
                CREATE TRIGGER keep_row_taken_over AFTER UPDATE OF quantity, name_key, unit, folder_id ON item
                    WHEN OLD.refill_quantity IS NOT NULL AND NEW.refill_quantity IS OLD.refill_quantity BEGIN
                    UPDATE keep_rule SET declined = 1 WHERE id = OLD.keep_rule_id;
                    UPDATE item SET refill_quantity = NULL, keep_rule_id = NULL WHERE id = NEW.id;
                END;
                CREATE TRIGGER keep_row_declined AFTER UPDATE OF deleted_at ON item
                    WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL AND OLD.keep_rule_id IS NOT NULL BEGIN
                    UPDATE keep_rule SET declined = 1 WHERE id = OLD.keep_rule_id;
                    UPDATE item SET refill_quantity = NULL, keep_rule_id = NULL WHERE id = NEW.id;
                END;
                """)
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM item") {
            try db.execute(sql: "UPDATE item SET name_key = ? WHERE id = ?", arguments: [KeepStock.nameKey(row["name"]), row["id"] as Int64])
        }
    }
}

extension Schema {
    /// The household's use and waste ledger (`HouseholdHabits`): what came into its stock lists and
    /// what left them by use or the trash, kept by triggers on `item` so that every writer is covered
    /// (a page, a cook, an import, sqlite3 by hand). An item's history (`item_event`) goes with the
    /// item when the trash is emptied; these rows stay (`item_id` set to NULL) so a year of habits
    /// can be drawn.
    ///
    /// Rows (`event`):
    /// - `stocked`: an item registered into a stock list, moved into one from a shopping list (bought),
    ///   or its quantity raised there (a purchase added to a row, a + tap): `quantity` is what came in.
    /// - `used`: its quantity lowered while in a stock list, by that much; `used_up` when it reached 0.
    /// - `trashed`: put in the trash from a stock list with `quantity` left (the rest used up, or
    ///   thrown away); taken out of the trash again, the row goes.
    ///
    /// Whether a row is waste is decided when read, in the household's time zone: `due` (the item's
    /// due date then) before the household's day of `at`, for `used_up` and `trashed` rows. `at` is the
    /// named write's time (`change_actor`, so tests inject the clock), else SQLite's clock.
    static func v20(_ db: Database) throws {
        let at = "COALESCE((SELECT at FROM change_actor WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"
        let isStock = { (folder: String) in "(SELECT kind FROM folder WHERE id = \(folder)) = 'stock'" }
        // The name folded as search folds it: the start of the item's search_text (fold(name) + newline
        // + fold(note)), so the ledger groups by product without folding again when it is read.
        let folded = { (row: String) in
            "CASE WHEN instr(\(row).search_text, char(10)) > 0 THEN substr(\(row).search_text, 1, instr(\(row).search_text, char(10)) - 1) ELSE lower(trim(\(row).name)) END"
        }
        func entry(_ row: String, quantity: String, event: String) -> String {
            """
                INSERT INTO stock_use (household_id, item_id, name, name_folded, unit, kind, quantity, event, due, at)
                    VALUES (\(row).household_id, \(row).id, \(row).name, \(folded(row)), \(row).unit, \(row).kind, \(quantity), \(event), \(row).due, \(at));
            """
        }
        try db.execute(
            sql: """
                CREATE TABLE stock_use (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    item_id INTEGER REFERENCES item(id) ON DELETE SET NULL,
                    name TEXT NOT NULL,
                    name_folded TEXT NOT NULL,
                    unit TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    quantity REAL NOT NULL CHECK (quantity > 0),
                    event TEXT NOT NULL CHECK (event IN ('stocked', 'used', 'used_up', 'trashed')),
                    due TEXT,
                    at TEXT NOT NULL
                );
                CREATE INDEX stock_use_by_household ON stock_use(household_id, at);
                CREATE INDEX stock_use_by_item ON stock_use(item_id);

                CREATE TRIGGER stock_use_registered AFTER INSERT ON item
                    WHEN NEW.deleted_at IS NULL AND NEW.quantity > 0 AND \(isStock("NEW.folder_id")) BEGIN
                \(entry("NEW", quantity: "NEW.quantity", event: "'stocked'"))
                END;
                CREATE TRIGGER stock_use_bought AFTER UPDATE OF folder_id ON item
                    WHEN NEW.deleted_at IS NULL AND OLD.deleted_at IS NULL AND NEW.quantity > 0
                        AND \(isStock("NEW.folder_id")) AND NOT \(isStock("OLD.folder_id")) BEGIN
                \(entry("NEW", quantity: "NEW.quantity", event: "'stocked'"))
                END;
                CREATE TRIGGER stock_use_added AFTER UPDATE OF quantity ON item
                    WHEN NEW.quantity > OLD.quantity AND NEW.deleted_at IS NULL AND OLD.deleted_at IS NULL AND NEW.unit = OLD.unit
                        AND NEW.folder_id = OLD.folder_id AND \(isStock("NEW.folder_id")) BEGIN
                \(entry("NEW", quantity: "NEW.quantity - OLD.quantity", event: "'stocked'"))
                END;
                CREATE TRIGGER stock_use_used AFTER UPDATE OF quantity ON item
                    WHEN NEW.quantity < OLD.quantity AND NEW.deleted_at IS NULL AND OLD.deleted_at IS NULL AND NEW.unit = OLD.unit
                        AND \(isStock("OLD.folder_id")) BEGIN
                \(entry("OLD", quantity: "OLD.quantity - NEW.quantity", event: "CASE WHEN NEW.quantity = 0 THEN 'used_up' ELSE 'used' END"))
                END;
                CREATE TRIGGER stock_use_trashed AFTER UPDATE OF deleted_at ON item
                    WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL AND OLD.quantity > 0 AND \(isStock("OLD.folder_id")) BEGIN
                \(entry("OLD", quantity: "OLD.quantity", event: "'trashed'"))
                END;
                CREATE TRIGGER stock_use_restored AFTER UPDATE OF deleted_at ON item
                    WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
                    DELETE FROM stock_use WHERE item_id = NEW.id AND event = 'trashed';
                END;
                """)
    }

    /// The meal plan (`MealPlan`): a household's days × meals, each a recipe for some servings or a
    /// free note. A meal planned weekly shares its `series_id` (the first meal's id) with its copies.
    /// Cooked from the plan, it names its cook (undoing the cook plans it again); skipped, it says so.
    /// And a member's calendar feed may carry the plan.
    static func v21(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE meal (
                    id INTEGER PRIMARY KEY,
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    day TEXT NOT NULL CHECK (length(day) = 10),
                    slot TEXT NOT NULL CHECK (slot IN ('breakfast', 'lunch', 'dinner', 'other')),
                    position INTEGER NOT NULL DEFAULT 0,
                    recipe_id INTEGER REFERENCES recipe(id) ON DELETE CASCADE,
                    servings INTEGER CHECK (servings BETWEEN 1 AND 99),
                    note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 200),
                    series_id INTEGER,
                    cook_id INTEGER REFERENCES cook(id) ON DELETE SET NULL,
                    done TEXT CHECK (done IN ('cooked', 'skipped')),
                    member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    CHECK (recipe_id IS NOT NULL OR length(note) >= 1),
                    CHECK ((recipe_id IS NULL) = (servings IS NULL))
                );
                CREATE INDEX meal_by_day ON meal(household_id, day);
                CREATE INDEX meal_by_cook ON meal(cook_id) WHERE cook_id IS NOT NULL;
                CREATE INDEX meal_by_recipe ON meal(recipe_id) WHERE recipe_id IS NOT NULL;

                ALTER TABLE calendar_feed ADD COLUMN meals INTEGER NOT NULL DEFAULT 1 CHECK (meals IN (0, 1));
                """)
    }
}

extension Schema {
    /// The change feed records the meal plan's changes too (entity `meal`), by triggers as for the
    /// other entities, so open plan pages follow what other members plan and the reservations a
    /// household's sequence keys (`ReservationCache`) are never stale. The entity's CHECK is part
    /// of the table, so the table is made again (SQLite's twelve steps; `legacy_alter_table` keeps
    /// the rename from checking the other tables' triggers, which name `change_record`, while it is
    /// briefly gone); its records are kept.
    static func v22(_ db: Database) throws {
        try db.execute(
            sql: """
                PRAGMA legacy_alter_table = ON;
                CREATE TABLE change_record_v22 (
                    household_id INTEGER NOT NULL REFERENCES household(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    entity TEXT NOT NULL CHECK (entity IN ('folder', 'item', 'product', 'recipe', 'meal')),
                    entity_id INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('created', 'changed', 'deleted')),
                    version INTEGER,
                    from_folder_id INTEGER,
                    to_folder_id INTEGER,
                    in_trash INTEGER NOT NULL DEFAULT 0 CHECK (in_trash IN (0, 1)),
                    member_id INTEGER REFERENCES member(id) ON DELETE SET NULL,
                    at TEXT NOT NULL,
                    PRIMARY KEY (household_id, seq)
                );
                INSERT INTO change_record_v22 (household_id, seq, entity, entity_id, kind, version, from_folder_id, to_folder_id, in_trash, member_id, at)
                    SELECT household_id, seq, entity, entity_id, kind, version, from_folder_id, to_folder_id, in_trash, member_id, at FROM change_record;
                DROP TABLE change_record;
                ALTER TABLE change_record_v22 RENAME TO change_record;
                PRAGMA legacy_alter_table = OFF;

                CREATE TRIGGER change_record_numbered AFTER INSERT ON change_record BEGIN
                    UPDATE household SET change_sequence = NEW.seq WHERE id = NEW.household_id;
                    DELETE FROM change_record WHERE household_id = NEW.household_id
                        AND seq = (SELECT MIN(seq) FROM change_record WHERE household_id = NEW.household_id)
                        AND seq < NEW.seq AND (seq <= NEW.seq - 5000 OR at < strftime('%Y-%m-%dT%H:%M:%SZ', NEW.at, '-14 days'));
                END;

                CREATE TRIGGER meal_insert_recorded AFTER INSERT ON meal BEGIN
                    INSERT INTO change_record (household_id, seq, entity, entity_id, kind, member_id, at)
                        SELECT h.id, h.change_sequence + 1, 'meal', NEW.id, 'created', a.member_id, COALESCE(a.at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                        FROM household h LEFT JOIN change_actor a ON a.id = 1 WHERE h.id = NEW.household_id;
                END;
                CREATE TRIGGER meal_update_recorded AFTER UPDATE OF day, slot, position, recipe_id, servings, note, cook_id, done ON meal
                    WHEN OLD.day IS NOT NEW.day OR OLD.slot IS NOT NEW.slot OR OLD.position IS NOT NEW.position
                        OR OLD.recipe_id IS NOT NEW.recipe_id OR OLD.servings IS NOT NEW.servings OR OLD.note IS NOT NEW.note
                        OR OLD.cook_id IS NOT NEW.cook_id OR OLD.done IS NOT NEW.done BEGIN
                    INSERT INTO change_record (household_id, seq, entity, entity_id, kind, member_id, at)
                        SELECT h.id, h.change_sequence + 1, 'meal', NEW.id, 'changed', a.member_id, COALESCE(a.at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                        FROM household h LEFT JOIN change_actor a ON a.id = 1 WHERE h.id = NEW.household_id;
                END;
                CREATE TRIGGER meal_delete_recorded AFTER DELETE ON meal BEGIN
                    INSERT INTO change_record (household_id, seq, entity, entity_id, kind, member_id, at)
                        SELECT h.id, h.change_sequence + 1, 'meal', OLD.id, 'deleted', a.member_id, COALESCE(a.at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                        FROM household h LEFT JOIN change_actor a ON a.id = 1 WHERE h.id = OLD.household_id;
                END;
                """)
    }
}

extension Schema {
    /// What one tap of a row's − or + changes, learned from how the household uses each product
    /// (`item.use_step`): the amount its last five uses took most often, when one was taken twice
    /// or more (the latest of equal counts); NULL until then, and a row's tap is the unit's step
    /// (`ItemUnit.step`). A use is a `used` row of the ledger (a − tap, an amount typed, a cook);
    /// the last of an item (`used_up`) is what was left, not an amount taken, and is not counted.
    /// Triggers keep it whoever writes: a use sets it on every item of the product, and an item
    /// registered, renamed or given another unit takes its product's.
    ///
    /// And a remembered barcode's shelf life set by hand on its product page
    /// (`product.shelf_life_days`), which stands for the learned one until it is cleared.
    static func v23(_ db: Database) throws {
        func learned(_ householdId: String, _ nameKey: String, _ unit: String) -> String {
            """
            (SELECT amount FROM (SELECT round(quantity, 3) AS amount, id FROM stock_use
                    WHERE household_id = \(householdId) AND name_folded = \(nameKey) AND unit = \(unit) AND event = 'used'
                    ORDER BY id DESC LIMIT 5)
                GROUP BY amount HAVING COUNT(*) >= 2 ORDER BY COUNT(*) DESC, MAX(id) DESC LIMIT 1)
            """
        }
        try db.execute(
            sql: """
                ALTER TABLE item ADD COLUMN use_step REAL CHECK (use_step IS NULL OR use_step > 0);
                ALTER TABLE product ADD COLUMN shelf_life_days INTEGER CHECK (shelf_life_days IS NULL OR shelf_life_days BETWEEN 0 AND 1830);
                CREATE INDEX stock_use_by_product ON stock_use(household_id, name_folded, unit, id) WHERE event = 'used';

                CREATE TRIGGER use_step_learned AFTER INSERT ON stock_use WHEN NEW.event = 'used' BEGIN
                    UPDATE item SET use_step = \(learned("NEW.household_id", "NEW.name_folded", "NEW.unit"))
                        WHERE household_id = NEW.household_id AND name_key = NEW.name_folded AND unit = NEW.unit AND deleted_at IS NULL;
                END;
                CREATE TRIGGER use_step_registered AFTER INSERT ON item
                    WHEN \(learned("NEW.household_id", "NEW.name_key", "NEW.unit")) IS NOT NULL BEGIN
                    UPDATE item SET use_step = \(learned("NEW.household_id", "NEW.name_key", "NEW.unit")) WHERE id = NEW.id;
                END;
                CREATE TRIGGER use_step_renamed AFTER UPDATE OF name_key, unit ON item
                    WHEN OLD.name_key IS NOT NEW.name_key OR OLD.unit IS NOT NEW.unit BEGIN
                    UPDATE item SET use_step = \(learned("NEW.household_id", "NEW.name_key", "NEW.unit")) WHERE id = NEW.id;
                END;

                UPDATE item SET use_step = \(learned("item.household_id", "item.name_key", "item.unit")) WHERE deleted_at IS NULL;
                """)
    }

    static func v24(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE api_token (
                    id INTEGER PRIMARY KEY,
                    member_id INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    scope TEXT NOT NULL CHECK (scope IN ('read', 'shopping', 'stock', 'all')),
                    token_hash BLOB NOT NULL UNIQUE,
                    created_at TEXT NOT NULL,
                    last_used_at TEXT,
                    last_used_address TEXT
                );
                CREATE INDEX api_token_by_member ON api_token(member_id);

                CREATE TABLE api_idempotency (
                    token_id INTEGER NOT NULL REFERENCES api_token(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    fingerprint BLOB NOT NULL,
                    created_at TEXT NOT NULL,
                    status INTEGER,
                    content_type TEXT,
                    etag TEXT,
                    body BLOB,
                    PRIMARY KEY (token_id, key)
                ) WITHOUT ROWID;
                CREATE INDEX api_idempotency_by_age ON api_idempotency(created_at);
                """)
    }

    /// When the write of a request with an `Idempotency-Key` committed (set inside that write's
    /// transaction): a claim left without an answer by a server that stopped is then known as done.
    static func v25(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE api_idempotency ADD COLUMN applied_at TEXT")
    }
}
