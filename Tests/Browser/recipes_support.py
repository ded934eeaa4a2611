"""Recipes written straight into a running server's database, for browser tests whose subject is not
the recipe editor (the editor's own tests type them in). Folding is SearchText.fold's: NFKC, lower case."""
import sqlite3
import unicodedata

from conftest import now as server_now


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def add_recipe(server, name, ingredients, servings=2, steps="", tags=(), produce=None, household_id=None) -> int:
    """ingredients: (name, amount or None, unit code or None[, note]) tuples. produce: dict with name,
    quantity, unit, kind, due_days, folder_id (optional keys after name). Returns the recipe's id."""
    now = server_now().strftime("%Y-%m-%dT%H:%M:%SZ")
    with sqlite3.connect(server.data_dir / "zaiko.sqlite", timeout=30) as db:
        db.execute("PRAGMA foreign_keys = ON")
        household = household_id or db.execute("SELECT MIN(id) FROM household").fetchone()[0]
        produce = produce or {}
        cursor = db.execute(
            """INSERT INTO recipe (household_id, name, name_folded, servings, steps, produce_name, produce_quantity,
                   produce_unit, produce_kind, produce_due_days, produce_folder_id, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (household, name, fold(name), servings, steps, produce.get("name"),
             produce.get("quantity", 1) if produce else None, produce.get("unit", "piece") if produce else None,
             produce.get("kind", "prepared") if produce else None, produce.get("due_days"), produce.get("folder_id"), now, now))
        recipe_id = cursor.lastrowid
        for position, ingredient in enumerate(ingredients):
            ingredient_name, amount, unit = ingredient[:3]
            note = ingredient[3] if len(ingredient) > 3 else ""
            db.execute(
                """INSERT INTO recipe_ingredient (household_id, recipe_id, position, name, name_folded, amount, unit, note)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                (household, recipe_id, position, ingredient_name, fold(ingredient_name), amount, unit, note))
        for tag in tags:
            db.execute("INSERT INTO recipe_tag (recipe_id, household_id, tag) VALUES (?, ?, ?)", (recipe_id, household, tag))
    return recipe_id
