-- A Grocy 4.6.0 household, inserted the way Grocy's API and its migration service write them
-- (run after schema-4.6.0.sql). Used by Tests/ExchangeTests (GrocyFixture.swift) and
-- Tests/Browser/test_grocy.py; the pictures are made by each test.

-- Grocy's DatabaseMigrationService records every migration it ran: 4.6.0 ran 1 to 256.
CREATE TABLE IF NOT EXISTS migrations (migration INTEGER NOT NULL PRIMARY KEY UNIQUE, execution_time_timestamp DATETIME DEFAULT (datetime('now', 'localtime')));
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 256) INSERT INTO migrations (migration) SELECT i FROM n;

-- The defaults a new Grocy has (its first shopping list, the meal plan's internal section).
INSERT INTO shopping_lists (id, name) VALUES (1, 'Shopping list');
INSERT INTO meal_plan_sections (id, name, sort_number) VALUES (-1, '', -1);
INSERT INTO users (id, username, password) VALUES (1, 'admin', '$2y$10$notarealhashnotarealhashnotarealhashnotarealhashnotare');

-- Locations: a fridge, a freezer (flag only, its name says nothing), a pantry.
INSERT INTO locations (id, name, is_freezer) VALUES (1, 'Fridge', 0), (2, 'Keller-Truhe', 1), (3, 'Pantry', 0);

-- Units in English, German and Japanese; "Prise" (a pinch) has no Zaiko unit.
INSERT INTO quantity_units (id, name, name_plural) VALUES
    (1, 'Piece', 'Pieces'), (2, 'Pack', 'Packs'), (3, 'Gramm', 'Gramm'), (4, 'Kilogram', 'Kilograms'),
    (5, 'Milliliter', 'Milliliters'), (6, 'Prise', 'Prisen'), (7, 'Flasche', 'Flaschen'), (8, '個', '個');

INSERT INTO product_groups (id, name) VALUES (1, '03 Meat/Fish'), (2, 'Milchprodukte'), (3, '06 Beverages'), (4, 'Gewürze');

-- Products: Milk has two barcodes, Minced beef one, Frozen peas one with a wrong check digit,
-- Orange juice one that is no product number (and a picture), Salt none (and a picture that is
-- missing), Umeboshi none (and a picture that is not an image).
INSERT INTO products (id, name, product_group_id, location_id, qu_id_purchase, qu_id_stock, picture_file_name) VALUES
    (1, 'Milk', 2, 1, 5, 5, NULL),
    (2, 'Minced beef', 1, 2, 3, 3, NULL),
    (3, 'Frozen peas', NULL, 2, 4, 4, NULL),
    (4, 'Salt', 4, 3, 6, 6, 'G7kd83_salt.jpg'),
    (5, 'Orange juice', 3, 1, 7, 7, 'Qx81zT_orange-juice.jpg'),
    (6, 'Umeboshi', NULL, 3, 8, 8, 'Pw2m9v_umeboshi.png');

INSERT INTO product_barcodes (product_id, barcode) VALUES
    (1, '4006381333931'), (1, '036000291452'), (2, '96385074'), (3, '4006381333932'), (5, 'SHOP-42');

-- Stock: one row per purchase (and its stock_log line, as Grocy's purchase writes both).
-- 2999-12-31 is Grocy's "never expires".
INSERT INTO stock (id, product_id, amount, best_before_date, purchased_date, stock_id, price, open, opened_date, location_id) VALUES
    (1, 1, 1000, '2026-12-01', '2026-11-20', '6740a1b2c3d41', 1.19, 1, '2026-11-21 08:00:00', 1),
    (2, 1, 1000, '2026-12-05', '2026-11-20', '6740a1b2c3d42', 1.19, 0, NULL, 1),
    (3, 2, 500, '2027-01-15', '2026-11-18', '6740a1b2c3d43', 4.99, 0, NULL, 2),
    (4, 3, 0.75, '2999-12-31', '2026-11-02', '6740a1b2c3d44', 2.49, 0, NULL, 2),
    (5, 4, 3, '2999-12-31', '2026-10-01', '6740a1b2c3d45', NULL, 0, NULL, 3),
    (6, 5, 2, '2026-12-20', '2026-11-19', '6740a1b2c3d46', 1.79, 1, '2026-11-22 07:30:00', 1),
    (7, 6, 12, '2027-06-30', '2026-09-10', '6740a1b2c3d47', 6.50, 0, NULL, 3);
INSERT INTO stock_log (product_id, amount, best_before_date, purchased_date, stock_id, transaction_type, price, location_id, stock_row_id, user_id)
    SELECT product_id, amount, best_before_date, purchased_date, stock_id, 'purchase', price, location_id, id, 1 FROM stock;

-- Shopping lists: a product line, a note line, a line already ticked off; a second list with a note line of amount 0.
INSERT INTO shopping_lists (id, name) VALUES (2, 'Drogerie');
INSERT INTO shopping_list (product_id, note, amount, shopping_list_id, done, qu_id) VALUES
    (5, NULL, 3, 1, 0, NULL),
    (NULL, 'Bread rolls', 6, 1, 0, 1),
    (4, NULL, 1, 1, 1, NULL),
    (NULL, 'Toothpaste', 0, 2, 0, NULL);

-- A recipe with three ingredients, and a meal plan entry (Grocy then makes internal recipes of its own).
-- Descriptions are the HTML of Grocy's editor; a recipe may produce a product, and have a picture.
INSERT INTO recipes (id, name, description, base_servings) VALUES
    (1, 'Pancakes', '<p>Mix the flour &amp; milk.</p><p>Rest 10 minutes.<br>Fry.</p>', 4);
INSERT INTO recipes (id, name, description, base_servings, product_id, picture_file_name) VALUES
    (2, 'Umeboshi juice', '', 1, 5, 'Jc55aa_juice.jpg');
INSERT INTO recipes_pos (recipe_id, product_id, amount, qu_id, note) VALUES (2, 6, 2, 8, 'pitted');
INSERT INTO recipes_pos (recipe_id, product_id, amount, qu_id) VALUES (1, 1, 250, 5), (1, 4, 1, 6), (1, 2, 0, 3);
INSERT INTO meal_plan (day, type, recipe_id, recipe_servings) VALUES ('2026-11-28', 'recipe', 1, 2);

-- Something Zaiko has no place for.
INSERT INTO chores (name, period_type, period_days) VALUES ('Clean the fridge', 'dynamic-regular', 14);
