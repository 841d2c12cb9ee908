extension SchemaDescription {
    /// The schema of the current migrations (`SnapshotSchema.version`).
    public static let current = SchemaDescription(tables: hierarchy + nutrition + nutritionReview
                                                  + hoursTables + recipes + swipes + views
                                                  + nutritionViews + swipeViews + search + housekeeping)

    private typealias C = Column

    private static let hierarchy: [Table] = [
        Table("service_day", .data, "One day of service at the dining halls.", columns: [
            C("id", "Integer id, assigned in partition order (sources as the pipeline lists them, dates ascending)."),
            C("date", "The day, `YYYY-MM-DD`, local to the dining hall; unique."),
            C("weekday", "ISO weekday: 1 = Monday … 7 = Sunday."),
        ]),
        Table("meal", .data, "A meal period of a service day, as the menu names it (Breakfast, Brunch, Lunch, Dinner, Late Night).", columns: [
            C("id", "Integer id, assigned in partition then page order."),
            C("service_day_id", "→ `service_day.id`."),
            C("name", "The meal period as printed; unique within its day."),
            C("position", "1 for the day's first meal on the menu page, then 2, 3…"),
        ]),
        Table("restaurant", .data, "A dining hall or outlet.", columns: [
            C("id", "Integer id, assigned in order of first appearance (partition then page order); join by `name`, which `diff` does."),
            C("name", "The name as the menu prints it (`De Neve`, `Bruin Plate`); unique."),
        ]),
        Table("section", .data, "A station of a restaurant (`Grill`, `The Front Burner`).", columns: [
            C("id", "Integer id, assigned in order of first appearance, like `restaurant.id`."),
            C("restaurant_id", "→ `restaurant.id`."),
            C("name", "The station as printed; unique within its restaurant."),
        ]),
        Table("food", .data, "A dish, once however often it is served: its identity is its source and recipe id. Searchable through `food_fts`.", searchTable: "food_fts", columns: [
            C("id", "`source:recipe_id`, e.g. `ucla-menu:041180`."),
            C("source", "The source that names the dish (`ucla-menu`)."),
            C("recipe_id", "The source's recipe id, as text: leading zeros are kept."),
            C("name", "The name on the dish's own page, else as first printed on a menu."),
            C("description", "The page's description, else the menu's; NULL when neither prints one."),
            C("serving_size", "As printed (`1 each`, `4 oz`)."),
            C("calories", "Calories per serving as printed on the label; NULL without a label."),
            C("ingredients", "The ingredient list as printed."),
            C("allergens", "Allergens as printed, comma-separated; NULL when the page lists none."),
            C("has_page", "1 when the dish's own page was read, 0 when only a menu mentioned it."),
            C("serving_amount", "The serving's amount read from what was printed (`3/4 cup` gives 0.75); NULL when the text does not start with one."),
            C("serving_unit", "The serving's unit read from what was printed (`cup`, `oz Portion`); NULL with `serving_amount`."),
        ]),
        Table("menu_item", .data, "One appearance of a food on a menu: in a section of a restaurant, in a meal of a day.", columns: [
            C("id", "Integer id, assigned in partition, meal and page order."),
            C("meal_id", "→ `meal.id`."),
            C("section_id", "→ `section.id`."),
            C("food_id", "→ `food.id`."),
            C("position", "Order on the meal's menu page, from 1."),
            C("name", "The name as printed on this menu; may carry a side (`w/ Fries`)."),
            C("portion", "The portion segment of the recipe link (`1`, `2`), or the serving the menu states (`6 oz`)."),
            C("description", "The item's description on this menu, if printed."),
            C("planned_portions", "Portions the kitchen planned to serve, where its menu says (UCLA's live feed); NULL elsewhere."),
            C("served_with_id", "For a side (FoodPro's \"w/\" and \"&\" lines): → `menu_item.id` of the dish it is served with; NULL for a dish."),
        ]),
        Table("dietary_code", .data, "What a code printed beside a dish means, from the legends of the sources the snapshot read (a TheMealDB-only snapshot has none).", columns: [
            C("code", "The code as printed (`V`, `VG`, `AEGG`, `LC`)."),
            C("label", "The legend's wording; the code itself when the legend does not define it."),
            C("kind", "`dietary`, `allergen`, `sustainability`, or `unknown` for a code missing from the legend (kept raw and reported by a check)."),
        ]),
        Table("food_code", .data, "The web codes of a food: those on its page and on every menu it appears on.", columns: [
            C("food_id", "→ `food.id`."),
            C("code", "→ `dietary_code.code`."),
        ]),
        Table("term", .data, "The one vocabulary of allergens and diets every source's codes map onto: the nine major US allergens (milk, eggs, fish, crustacean shellfish, tree nuts, peanuts, wheat, soybeans, sesame), gluten, the diets vegan, vegetarian, halal and kosher, and low carbon.", columns: [
            C("name", "Lower case with underscores, as queries name it (`tree_nuts`)."),
            C("kind", "`allergen`, `diet` or `sustainability`."),
            C("label", "For people (\"Tree nuts\")."),
        ]),
        Table("code_term", .data, "What each source's raw code means in the vocabulary, as its legend says; a code with no row here (unknown, or a high-carbon label) means none.", columns: [
            C("code", "→ `dietary_code.code`, as the source prints it."),
            C("term", "→ `term.name`."),
        ]),
    ]

    private static let nutrition: [Table] = [
        Table("nutrient", .data, "A nutrient under its canonical key, so that one nutrient from several sources is one row.", columns: [
            C("key", "Canonical key (`total_fat`, `sodium`, `vitamin_a`)."),
            C("name", "The label's wording, as first seen."),
            C("unit", "Unit of the amount (`g`, `mg`); NULL for vitamins and minerals printed as a %DV only."),
        ]),
        Table("food_nutrient", .data, "One nutrient of one food's label, with the printed and the computed %DV.", columns: [
            C("food_id", "→ `food.id`."),
            C("nutrient_key", "→ `nutrient.key`."),
            C("amount", "Amount per serving as printed; NULL when the label prints only a %DV."),
            C("unit", "Unit of `amount`, as printed."),
            C("printed_dv_percent", "The %DV printed beside the amount, if any."),
            C("computed_dv_percent", "100 × amount ÷ daily value, rounded half up, under `dv_standard`; NULL when the standard has no value for this nutrient or unit."),
            C("dv_standard", "The daily-value standard of `computed_dv_percent` (`ucla-label`, `fda-2016`)."),
            C("printed_amount", "The amount as printed when it is not a plain number (`< 1`, `0+`, `-`); `amount` is then NULL."),
            C("amount_below", "Printed as `< 1`: the true amount is below this number."),
            C("amount_at_least", "Printed as `0+`: the true amount is at least this number (the source's sum lacks some ingredients)."),
        ]),
    ]

    private static let nutritionReview: [Table] = [
        Table("food_nutrient_agreement", .data, "Whether a printed %DV agrees with its printed amount under the pipeline's daily-value standard. Both lawful ways count (21 CFR 101.9(c)): from the declared, rounded amount, or from any unrounded amount that rounds to the printed one.", columns: [
            C("food_id", "→ `food.id`."),
            C("nutrient_key", "→ `nutrient.key`."),
            C("dv_standard", "The daily-value standard checked against."),
            C("printed_dv_percent", "The %DV printed on the label."),
            C("declared_dv_percent", "The %DV a label prints for the printed amount."),
            C("unrounded_low", "The lowest amount the printed amount may stand for."),
            C("unrounded_high", "The highest amount the printed amount may stand for."),
            C("agrees_from_declared", "1 when the printed amount gives the printed %DV."),
            C("agrees_from_unrounded", "1 when some amount in the unrounded range gives the printed %DV."),
            C("agrees", "1 when either way gives the printed %DV."),
        ]),
        Table("food_flag", .data, "A problem with one food's label (energy that does not add up, a negative or absurd value): an error for that food, not for the run.", columns: [
            C("food_id", "→ `food.id`."),
            C("check_name", "The check that raised it (`energy_sanity`, `implausible_value`)."),
            C("severity", "`error` or `warning`."),
            C("nutrient_key", "The nutrient concerned, when one is."),
            C("message", "What is wrong, in one line."),
        ]),
    ]

    private static let swipes: [Table] = [
        Table("meal_plan", .data, "A meal plan: a weekly allowance (Regular, R) or a pool for the term (Premier, P), from `Pipelines/plans/`.", columns: [
            C("code", "The plan's code (`19P`, `14R`)."),
            C("name", "The plan's name."),
            C("kind", "`regular` (resets every week) or `premier` (one pool for the term)."),
            C("weekly_swipes", "Swipes in the reference week."),
            C("daily_swipes", "The reference week's swipes per day, Monday first (`3,3,3,3,3,2,2`)."),
            C("term_pool", "The term's pool (Premier plans); NULL for Regular plans."),
            C("swipes_per_term", "The pool, or the weekly allowance × the weeks of a term."),
            C("annual_price", "The annual price in dollars, when given."),
            C("price_year", "The academic year of the price."),
            C("price_per_swipe", "Annual price ÷ the swipes a year buys, to the cent."),
        ]),
        Table("swipe_balance", .data, "The expected balance of every plan after every meal period of every day of the configured terms.", columns: [
            C("plan", "→ `meal_plan.code`."),
            C("term", "The term (`Fall 2026`)."),
            C("date", "The day, `YYYY-MM-DD`."),
            C("weekday", "ISO weekday: 1 = Monday."),
            C("week", "The week of the term: 0 … 10, then 11 for finals week."),
            C("week_label", "`Week 0` … `Week 10`, `Finals Week`."),
            C("position", "The period's place in the day, from 1."),
            C("period", "The meal period, as the day's menu names it."),
            C("period_source", "`menu` (from the published menu), `default` (the plan's default periods: no menu that day) or `closed` (a closure)."),
            C("swipes", "Swipes the reference week uses at this period."),
            C("balance", "The expected balance after this period."),
        ]),
    ]

    private static let hoursTables: [Table] = [
        Table("hours", .data, "Opening hours of a restaurant for a meal period of a day, as published.", columns: [
            C("id", "Integer id, assigned in date then page order."),
            C("restaurant", "The restaurant as the hours page spells it (it may differ from the menus)."),
            C("date", "The day, `YYYY-MM-DD`; NULL when the page gives no day."),
            C("meal", "The meal period column of the hours page."),
            C("opens", "Local opening time as printed (`7:00am`); NULL when closed."),
            C("closes", "Local closing time as printed; NULL when closed."),
            C("is_closed", "1 when the page says CLOSED."),
            C("note", "A remark printed beside the hours (`Brunch`, `Closed 1:30-2:00PM`)."),
        ]),
    ]

    private static let recipes: [Table] = [
        Table("category", .data, "A recipe category with the catalogue's own description.", columns: [
            C("name", "The category (`Seafood`)."),
            C("description", "The catalogue's description, when its categories list was read."),
            C("thumbnail_url", "The category's picture."),
        ]),
        Table("area", .data, "A cuisine a recipe is filed under (`Italian`).", columns: [
            C("name", "The area as the catalogue names it."),
        ]),
        Table("tag", .data, "A tag used by at least one recipe.", columns: [
            C("name", "The tag as the catalogue spells it."),
        ]),
        Table("ingredient", .data, "An ingredient, once however it is spelled.", columns: [
            C("key", "Lower-cased with spaces folded (`olive oil`), so `Olive Oil` and `olive oil` are one row."),
            C("name", "The first spelling seen."),
        ]),
        Table("recipe", .data, "A catalogue recipe (a TheMealDB meal). Searchable through `recipe_fts`.", searchTable: "recipe_fts", columns: [
            C("id", "`source:source_id`, e.g. `mealdb:52771`."),
            C("source", "The catalogue (`mealdb`)."),
            C("source_id", "The catalogue's id."),
            C("name", "The recipe's name."),
            C("alternate_name", "Another name the catalogue gives, if any."),
            C("category", "→ `category.name`."),
            C("area", "→ `area.name`."),
            C("instructions", "The steps, one per line (\"STEP n\" headers removed, line endings unified)."),
            C("thumbnail_url", "The recipe's picture."),
            C("youtube_url", "A video of the recipe."),
            C("source_url", "Where the recipe was first published."),
            C("modified_at", "As the catalogue prints it (`YYYY-MM-DD HH:MM:SS`, zone unknown)."),
        ]),
        Table("recipe_tag", .data, "The tags of a recipe.", columns: [
            C("recipe_id", "→ `recipe.id`."),
            C("tag", "→ `tag.name`."),
        ]),
        Table("recipe_ingredient", .data, "One ingredient line of a recipe: the measure as written and what could be read from it.", columns: [
            C("recipe_id", "→ `recipe.id`."),
            C("position", "The line's place in the recipe, from 1."),
            C("ingredient_key", "→ `ingredient.key`."),
            C("ingredient_name", "The ingredient as this recipe spells it."),
            C("measure_raw", "The measure exactly as written; NULL when none is given."),
            C("measure_kind", "`quantity` (number and unit), `count` (a bare number), `unquantified` (`to taste`), `unparsed`, or `absent`."),
            C("quantity", "The (lower) amount as a decimal."),
            C("quantity_numerator", "The amount as an exact fraction: numerator."),
            C("quantity_denominator", "The amount as an exact fraction: denominator (`1/3 cup` stays a third)."),
            C("quantity_max", "The upper amount of a range (`2-3 tbsp`)."),
            C("unit", "Canonical unit (`g`, `ml`, `tbsp`, `cup`, `clove`)."),
            C("unit_system", "`metric`, `us`, or NULL when the unit belongs to neither."),
            C("confidence", "0–1: how sure the parser is of `quantity` and `unit`."),
        ]),
    ]

    private static let views: [Table] = [
        Table("v_menu", .view, "Every menu item with its day, meal, restaurant, section and the codes of its food: the menu as a flat table.", columns: [
            C("date", "The service day, `YYYY-MM-DD`."),
            C("weekday", "ISO weekday: 1 = Monday."),
            C("meal", "The meal period."),
            C("restaurant", "The restaurant."),
            C("section", "The station."),
            C("item", "The name printed on this menu."),
            C("food_id", "→ `food.id`."),
            C("food", "The food's own name."),
            C("portion", "The portion segment of the recipe link."),
            C("codes", "The food's web codes, space-separated, in code order."),
            C("served_with", "For a side: the name of the dish it is served with; NULL for a dish."),
        ]),
        Table("v_food_term", .view, "Every food with each term of the vocabulary its codes mean, and the raw code that says so: one question across every source (a food with no allergen row has none declared, which is not the same as none present).", columns: [
            C("food_id", "→ `food.id`."),
            C("food", "The food's name."),
            C("term", "→ `term.name`."),
            C("kind", "`allergen`, `diet` or `sustainability`."),
            C("code", "The source's raw code."),
        ]),
        Table("v_menu_code", .view, "One row per menu item and code of its food, with what the code means: the codes of `v_menu` as rows to join and filter on (a code with no term has a NULL `term`; an item with no code has no row).", columns: [
            C("menu_item_id", "→ `menu_item.id`."),
            C("date", "The service day."),
            C("meal", "The meal period."),
            C("restaurant", "The restaurant."),
            C("item", "The item as the menu names it."),
            C("food_id", "→ `food.id`."),
            C("code", "The source's raw code."),
            C("code_kind", "`dietary`, `allergen`, `sustainability` or `unknown`."),
            C("term", "→ `term.name`, or NULL."),
        ]),
        Table("v_food_nutrition", .view, "Every food with every nutrient of its label, amount, printed and computed %DV.", columns: [
            C("food_id", "→ `food.id`."),
            C("food", "The food's name."),
            C("serving_size", "As printed."),
            C("calories", "Calories per serving."),
            C("nutrient_key", "→ `nutrient.key`."),
            C("nutrient", "The nutrient's name."),
            C("amount", "Amount per serving; NULL when only a %DV is printed."),
            C("unit", "Unit of `amount`."),
            C("printed_dv_percent", "The %DV printed on the label."),
            C("computed_dv_percent", "The %DV computed under `dv_standard`."),
            C("dv_standard", "The daily-value standard of the computed %DV."),
            C("declared_dv_percent", "The %DV a label would print for the printed amount under `dv_standard`."),
            C("dv_agrees", "1 when the printed %DV agrees with the amount in either lawful way, 0 when not, NULL when not checked."),
            C("food_flags", "How many `food_flag` rows the food has."),
            C("printed_amount", "The amount as printed when it is not a plain number (`< 1`, `0+`, `-`)."),
            C("amount_below", "Printed as `< 1`: the true amount is below this number."),
            C("amount_at_least", "Printed as `0+`: the true amount is at least this number."),
        ]),
        Table("v_recipe_search", .view, "One row per recipe with its ingredients and tags gathered: the content `recipe_fts` indexes.", columns: [
            C("recipe_rowid", "`recipe.rowid`: what `recipe_fts.rowid` joins to."),
            C("recipe_id", "→ `recipe.id`."),
            C("name", "The recipe's name."),
            C("ingredients", "The ingredient names in recipe order, comma-separated."),
            C("tags", "The tags in name order, comma-separated."),
            C("instructions", "The steps, one per line."),
        ]),
    ]

    private static let nutritionViews: [Table] = [
        Table("v_food_macros", .view, "One row per food with its main amounts in grams (sodium and cholesterol in mg), whatever unit its label used, and whether it is vegan or vegetarian.", columns: [
            C("food_id", "→ `food.id`."),
            C("source", "The food's source."),
            C("food", "The food's name."),
            C("serving_size", "As printed."),
            C("calories", "Calories per serving."),
            C("protein_g", "Protein, g."),
            C("total_fat_g", "Total fat, g."),
            C("saturated_fat_g", "Saturated fat, g."),
            C("total_carbohydrate_g", "Total carbohydrate, g."),
            C("dietary_fiber_g", "Dietary fiber, g."),
            C("sugars_g", "Sugars, g."),
            C("sodium_mg", "Sodium, mg."),
            C("cholesterol_mg", "Cholesterol, mg."),
            C("is_vegan", "1 when the food carries the `VG` code."),
            C("is_vegetarian", "1 when the food carries `V` or `VG`."),
            C("dv_disagreements", "Printed %DVs that agree with no lawful amount."),
            C("flags", "How many `food_flag` rows the food has."),
        ]),
        Table("v_menu_nutrition", .view, "Every menu item with its food's amounts: `v_menu` joined to `v_food_macros`. An entrée is an item with at least 200 kcal and 10 g of protein, since no source marks main dishes.", columns: [
            C("date", "The service day."),
            C("weekday", "ISO weekday: 1 = Monday."),
            C("meal", "The meal period."),
            C("restaurant", "The restaurant."),
            C("section", "The station."),
            C("item", "The name printed on this menu."),
            C("food_id", "→ `food.id`."),
            C("food", "The food's own name."),
            C("codes", "The food's web codes, space-separated."),
            C("is_vegan", "1 when the food is vegan (`VG`)."),
            C("is_vegetarian", "1 when the food is vegetarian (`V` or `VG`)."),
            C("is_entree", "1 for at least 200 kcal and 10 g of protein."),
            C("calories", "Calories per serving."),
            C("protein_g", "Protein, g."),
            C("total_fat_g", "Total fat, g."),
            C("saturated_fat_g", "Saturated fat, g."),
            C("total_carbohydrate_g", "Total carbohydrate, g."),
            C("dietary_fiber_g", "Dietary fiber, g."),
            C("sugars_g", "Sugars, g."),
            C("sodium_mg", "Sodium, mg."),
            C("cholesterol_mg", "Cholesterol, mg."),
            C("dv_disagreements", "Printed %DVs of the food that agree with no lawful amount."),
            C("flags", "How many `food_flag` rows the food has."),
        ]),
        Table("v_nutrition_summary", .view, "Per day, meal and restaurant: items, vegan and vegetarian options, entrées, average calories, the most protein among vegan items, the least sodium among entrées.", columns: [
            C("date", "The service day."),
            C("meal", "The meal period."),
            C("restaurant", "The restaurant."),
            C("items", "Menu items."),
            C("vegan_items", "Vegan menu items."),
            C("vegetarian_items", "Vegetarian menu items."),
            C("entrees", "Entrées (at least 200 kcal and 10 g of protein)."),
            C("avg_calories", "Average calories of the items, to 0.1."),
            C("max_vegan_protein_g", "The most protein of a vegan item, g."),
            C("min_entree_sodium_mg", "The least sodium of an entrée, mg."),
            C("items_with_dv_disagreements", "Items whose label has a %DV that agrees with no lawful amount."),
            C("flagged_items", "Items whose food has a `food_flag`."),
        ]),
        Table("v_lowest_sodium_entree", .view, "The lowest-sodium entrée of each restaurant at each meal of each day (ties broken by name).", columns: [
            C("date", "The service day."),
            C("meal", "The meal period."),
            C("restaurant", "The restaurant."),
            C("section", "The station."),
            C("item", "The name printed on the menu."),
            C("food_id", "→ `food.id`."),
            C("sodium_mg", "Sodium, mg."),
            C("calories", "Calories per serving."),
            C("protein_g", "Protein, g."),
        ]),
        Table("v_label_disagreements", .view, "Foods whose label disagrees with itself: a printed %DV no lawful amount gives, or a `food_flag`.", columns: [
            C("food_id", "→ `food.id`."),
            C("food", "The food's name."),
            C("kind", "`dv_percent`, or the flag's check name."),
            C("nutrient_key", "The nutrient concerned, when one is."),
            C("message", "What disagrees, in one line."),
        ]),
    ]

    private static let swipeViews: [Table] = [
        Table("v_swipe_table", .view, "The swipe table an app shows (\"you should have N swipes left\"): every plan's balance after every period, with its week label and what the balance is worth.", columns: [
            C("term", "The term."),
            C("date", "The day."),
            C("weekday", "ISO weekday: 1 = Monday."),
            C("week", "The week as a number, 0 … 10 and 11 for finals week: sort on this, not on the label."),
            C("week_label", "`Week 0` … `Week 10`, `Finals Week`."),
            C("position", "The period's place in the day."),
            C("period", "The meal period."),
            C("period_source", "`menu`, `default` or `closed`."),
            C("plan", "→ `meal_plan.code`."),
            C("kind", "`regular` or `premier`."),
            C("swipes", "Swipes used at this period."),
            C("balance", "The expected balance after this period."),
            C("price_per_swipe", "The plan's price per swipe, dollars."),
            C("balance_value", "balance × price per swipe, dollars."),
        ]),
    ]

    private static let search: [Table] = [
        Table("food_fts", .search, "Full-text index of `food` (external content: `food_fts.rowid` = `food.rowid`). Query with `food_fts MATCH 'quinoa'`; diacritics and case are ignored.", columns: [
            C("name", "The food's name."),
            C("description", "The food's description."),
            C("ingredients", "The food's ingredient list."),
        ]),
        Table("recipe_fts", .search, "Full-text index of recipes over `v_recipe_search` (`recipe_fts.rowid` = `recipe.rowid`). Query with `recipe_fts MATCH 'tags:pasta'`.", columns: [
            C("name", "The recipe's name."),
            C("ingredients", "Its ingredient names."),
            C("tags", "Its tags."),
            C("instructions", "Its steps."),
        ]),
    ]

    private static let housekeeping: [Table] = [
        Table("_meta", .housekeeping, "Facts about the snapshot, one per row: `schema_version`, `pipeline`, `run_id`, `built_at`, `code_version`, `sources` (one line per source), `licence`, `inputs_sha256` (the sha256 of the code, the pipeline and every input's bytes: a run that finds the same fingerprint publishes nothing).", columns: [
            C("key", "The fact's name."),
            C("value", "Its value, as text."),
        ]),
        Table("_runs", .housekeeping, "The run that built the snapshot.", columns: [
            C("run_id", "`HHMMSSmmm` (UTC, to the millisecond) and two hex digits; also in the file name."),
            C("pipeline", "The pipeline's name."),
            C("started_at", "ISO 8601, UTC."),
            C("code_version", "The version of Commissary that ran."),
            C("arguments", "The command line, as a JSON array."),
            C("partitions", "How many partitions the run read."),
        ]),
        Table("_checks", .housekeeping, "Every data-quality check of the run: errors block publishing, warnings are recorded, `stale` names a partition published from its last good version.", columns: [
            C("run_id", "→ `_runs.run_id`."),
            C("name", "The check (`min_menu_items`, `unknown_code`, `stale_partition`)."),
            C("severity", "`error`, `warning`, `info` or `stale`."),
            C("passed", "1 when the check passed."),
            C("value", "The measured figure, when there is one."),
            C("message", "What was found, in one line."),
        ]),
        Table("_sources", .housekeeping, "Every input document the snapshot was built from.", columns: [
            C("url", "Where it was read from."),
            C("fetched_at", "ISO 8601, UTC."),
            C("status", "The HTTP status (200 for a file)."),
            C("sha256", "Hex digest of the body, as kept in the raw store."),
            C("charset", "The character set the body was decoded with."),
            C("bytes", "The body's size."),
        ]),
        Table("_stale", .housekeeping, "Partitions (a service day, `hours`) whose newest fetch was refused by validation or failed, published from their last good version instead.", columns: [
            C("source", "The pipeline's source name."),
            C("partition", "The partition's key: `YYYY-MM-DD` for a service day."),
            C("kept_fetched_at", "When the version published was fetched (ISO 8601, UTC)."),
            C("kept_run_id", "The run that fetched it."),
            C("reason", "Why the newest fetch was not used, in one line."),
        ]),
        Table("grdb_migrations", .housekeeping, "The schema migrations applied, by name (the bookkeeping of GRDB, the SQLite library that writes snapshots); `PRAGMA user_version` holds their count.", columns: [
            C("identifier", "The migration's name (`v1-food-hierarchy-and-recipes`)."),
        ]),
    ]
}
