#!/usr/bin/env python3
"""USDA SR24 as cronometer ships it (one XML file per food in a zip) into the SQLite reference.

Each food file is `<food uid= name= pcf= fcf= ccf=>` with `<measure amount= name= grams=>` and
`<nutrient name= amount=>` (per 100 g); the units are not in the food files but in cronometer's own
`nutrients.xml` (name, unit, USDA nutrient number). Tables (docs/nutrition-estimates.md):
reference_food, reference_nutrient, reference_food_nutrient, reference_measure, reference_source.
"""
import argparse
import hashlib
import sqlite3
import sys
import xml.etree.ElementTree as ElementTree
import zipfile


def number(text, where):
    try:
        value = float(text)
    except (TypeError, ValueError):
        sys.exit(f"error: {where}: {text!r} is not a number")
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        sys.exit(f"error: {where}: {text!r} is not an amount")
    return value


def optional_number(text, where):
    return None if text is None else number(text, where)


def nutrients(jar):
    with zipfile.ZipFile(jar) as archive:
        root = ElementTree.fromstring(archive.read("nutrients.xml"))
    for element in root.iter("nutrient"):
        unit = element.get("unit", "").replace("\u00b5g", "mcg")
        yield element.get("name"), unit, element.get("usda")


def foods(jar):
    with zipfile.ZipFile(jar) as archive:
        for entry in sorted(archive.namelist()):
            if entry.endswith(".xml"):
                yield entry, ElementTree.fromstring(archive.read(entry))


def digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def build(arguments):
    database = sqlite3.connect(arguments.output)
    # reference_food_nutrient is kept in the order of its nutrients: a run reads the 14 it
    # estimates, each one range of the table, rather than all of its 428,000 rows.
    database.executescript("""
        DROP TABLE IF EXISTS reference_source; DROP TABLE IF EXISTS reference_food;
        DROP TABLE IF EXISTS reference_nutrient; DROP TABLE IF EXISTS reference_food_nutrient;
        DROP TABLE IF EXISTS reference_measure;
        CREATE TABLE reference_source (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE reference_food (uid TEXT PRIMARY KEY, name TEXT NOT NULL,
            protein_factor REAL, fat_factor REAL, carbohydrate_factor REAL);
        CREATE TABLE reference_nutrient (name TEXT PRIMARY KEY, unit TEXT NOT NULL, usda_number TEXT);
        CREATE TABLE reference_food_nutrient (uid TEXT NOT NULL REFERENCES reference_food(uid),
            nutrient TEXT NOT NULL REFERENCES reference_nutrient(name), amount_per_100g REAL NOT NULL,
            PRIMARY KEY (nutrient, uid)) WITHOUT ROWID;
        CREATE TABLE reference_measure (uid TEXT NOT NULL REFERENCES reference_food(uid),
            position INTEGER NOT NULL, name TEXT NOT NULL, amount REAL NOT NULL, grams REAL NOT NULL,
            PRIMARY KEY (uid, position)) WITHOUT ROWID;
    """)
    units = {}
    for name, unit, usda in nutrients(arguments.nutrients):
        units[name] = unit
        database.execute("INSERT INTO reference_nutrient VALUES (?, ?, ?)", (name, unit, usda))
    count = 0
    for entry, food in foods(arguments.foods):
        uid, name = food.get("uid"), food.get("name")
        if not uid or not name:
            sys.exit(f"error: {arguments.foods}: {entry}: a food without uid or name")
        database.execute("INSERT INTO reference_food VALUES (?, ?, ?, ?, ?)", (
            uid, name, optional_number(food.get("pcf"), f"{entry}: pcf"),
            optional_number(food.get("fcf"), f"{entry}: fcf"), optional_number(food.get("ccf"), f"{entry}: ccf")))
        for position, measure in enumerate(food.iter("measure"), start=1):
            database.execute("INSERT INTO reference_measure VALUES (?, ?, ?, ?, ?)", (
                uid, position, measure.get("name", ""), number(measure.get("amount"), f"{entry}: measure amount"),
                number(measure.get("grams"), f"{entry}: measure grams")))
        for nutrient in food.iter("nutrient"):
            nutrient_name = nutrient.get("name")
            if nutrient_name not in units:
                sys.exit(f"error: {entry}: nutrient {nutrient_name!r} is not in nutrients.xml (no unit)")
            database.execute("INSERT OR REPLACE INTO reference_food_nutrient VALUES (?, ?, ?)", (
                uid, nutrient_name, number(nutrient.get("amount"), f"{entry}: {nutrient_name}")))
        count += 1
    source = {"name": "usda-sr24", "package": arguments.package, "foods_sha256": digest(arguments.foods),
              "foods": str(count), "licence": "USDA SR: public domain (Debian's copyright file for cronometer)"}
    database.executemany("INSERT INTO reference_source VALUES (?, ?)", sorted(source.items()))
    database.commit()
    database.execute("VACUUM")
    database.close()
    print(f"{count} foods from {arguments.package}", file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--foods", required=True, help="usda_sr24.jar")
    parser.add_argument("--nutrients", required=True, help="cronometer.jar (holds nutrients.xml)")
    parser.add_argument("--package", required=True, help="the .deb's file name, for provenance")
    parser.add_argument("--output", required=True)
    build(parser.parse_args())
