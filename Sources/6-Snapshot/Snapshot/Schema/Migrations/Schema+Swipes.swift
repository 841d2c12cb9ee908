extension SnapshotSchema {
    /// Meal plans and the expected swipe balances of every plan over every meal period of the
    /// configured terms (issue 6; docs/meal-plans.md). `v_swipe_table` is what an app in the style of
    /// BruinLife shows: "you should have N swipes left", with what they are worth.
    static let v2Swipes = """
        CREATE TABLE meal_plan (
            code TEXT PRIMARY KEY,              -- 19P, 14R, ...
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('regular', 'premier')),
            weekly_swipes INTEGER NOT NULL,     -- the reference week's total
            daily_swipes TEXT NOT NULL,         -- the reference week, Monday first: 3,3,3,3,3,2,2
            term_pool INTEGER,                  -- premier plans only
            swipes_per_term INTEGER NOT NULL,   -- the pool, or the weekly allowance x weeks a term
            annual_price REAL,                  -- dollars
            price_year TEXT,                    -- the academic year the price is for
            price_per_swipe REAL                -- annual price / swipes a year buys, to the cent
        );
        CREATE TABLE swipe_balance (
            plan TEXT NOT NULL REFERENCES meal_plan(code),
            term TEXT NOT NULL,
            date TEXT NOT NULL,                 -- YYYY-MM-DD
            weekday INTEGER NOT NULL,           -- ISO: 1 = Monday ... 7 = Sunday
            week INTEGER NOT NULL,              -- 0 ... 10, then finals week as 11
            week_label TEXT NOT NULL,           -- Week 0 ... Week 10, Finals Week
            position INTEGER NOT NULL,          -- the period's place in the day, from 1
            period TEXT NOT NULL,               -- as the day's menu names it
            period_source TEXT NOT NULL CHECK (period_source IN ('menu', 'default', 'closed')),
            swipes INTEGER NOT NULL,            -- swipes the reference week uses at this period
            balance INTEGER NOT NULL,           -- expected balance after this period
            PRIMARY KEY (plan, date, position)
        ) WITHOUT ROWID;
        CREATE INDEX swipe_balance_by_date ON swipe_balance(date, plan);

        CREATE VIEW v_swipe_table AS
        SELECT b.term, b.date, b.weekday, b.week_label, b.position, b.period, b.period_source,
               b.plan, p.kind, b.swipes, b.balance, p.price_per_swipe,
               round(b.balance * p.price_per_swipe, 2) AS balance_value
        FROM swipe_balance b
        JOIN meal_plan p ON p.code = b.plan;
        """
}
