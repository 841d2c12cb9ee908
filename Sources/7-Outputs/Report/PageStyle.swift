/// The page's one style sheet: colours as variables with a dark set for
/// `prefers-color-scheme: dark`, print rules, and the classes the charts draw with. The charts'
/// texts name the faces `TextWidth` measures.
enum PageStyle {
    static let css = """
        :root { color-scheme: light dark; --fg: #1c2328; --muted: #5b6770; --bg: #fff; --panel: #f3f5f7; --line: #dde2e6;
          --accent: #1f6f8b; --good: #1e7b3a; --warn: #9a5b00; --bad: #b3261e; --empty: #e9edf0; --hatch: #98a3ab;
          --stale: #d0342c; --closed: #f4d03f; }
        svg .count { fill: #1c2328; } svg .count.on-dark { fill: #fff; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e4e8eb; --muted: #9eabb4; --bg: #14181b; --panel: #1e2428; --line: #334047; --accent: #5db3d3;
            --good: #68c482; --warn: #e5a54b; --bad: #ff7b72; --empty: #263038; --hatch: #65727b; --stale: #ff6b61;
            --closed: #8a7420; }
          svg .count { fill: #e4e8eb; } svg .count.on-dark { fill: #14181b; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, sans-serif; }
        main { max-width: 1000px; margin: 0 auto; padding: .75rem 20px 3rem; }
        h1 { font-size: 1.35rem; margin: .25rem 0 0; overflow-wrap: anywhere; }
        h2 { font-size: 1.2rem; margin: 0 0 .5rem; padding-top: .75rem; }
        h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
        a { color: var(--accent); }
        .basis, .built, .none, .count { color: var(--muted); }
        .basis { margin: 0 0 .5rem; font-size: 13px; }
        .none { font-style: italic; }
        section { border-top: 1px solid var(--line); margin-top: 1.25rem; }
        #headline { border: 0; margin-top: .25rem; }
        .verdict { margin: 0 0 .6rem; padding: .55rem .8rem; background: var(--panel); border-left: 6px solid var(--muted);
          font-size: 1.05rem; border-radius: 4px; }
        .verdict.good { border-color: var(--good); } .verdict.warn { border-color: var(--warn); }
        .verdict.bad { border-color: var(--bad); }
        .strip { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: .5rem; }
        .figure { display: flex; flex-direction: column; padding: .45rem .65rem; background: var(--panel); border-radius: 6px;
          color: inherit; text-decoration: none; border-top: 3px solid var(--line); min-width: 0; }
        .figure.warn { border-top-color: var(--warn); } .figure.bad { border-top-color: var(--bad); }
        .figure .k { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        .figure .v { font-size: 1.45rem; font-weight: 650; font-variant-numeric: tabular-nums; }
        .figure .d { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
        .built { font-size: 12px; margin: .4rem 0 0; }
        nav { margin: .9rem 0 0; font-size: 14px; } nav a { margin-right: .8rem; }
        figure.chart { margin: .75rem 0 .25rem; }
        figcaption { font-weight: 600; margin-bottom: .25rem; }
        svg.chart { display: block; max-width: 100%; height: auto; overflow: hidden; }
        svg text { font-family: "DejaVu Sans", Verdana, system-ui, sans-serif; fill: var(--fg); }
        svg .tick, svg .axis-title { fill: var(--muted); }
        svg .axis { stroke: var(--muted); } svg .grid { stroke: var(--line); }
        svg .bar, svg .cell { fill: var(--accent); } svg .empty { fill: var(--empty); }
        svg .missing { fill: url(#hatch); } svg .missing-bg { fill: var(--empty); }
        svg .missing-line { stroke: var(--hatch); stroke-width: 2; }
        svg .stale { fill: none; stroke: var(--stale); stroke-width: 2; } svg .absent { fill: var(--hatch); }
        svg .whisker { stroke: var(--muted); stroke-width: 1.5; } svg .median { stroke: var(--fg); stroke-width: 2.5; }
        svg .box { fill: var(--accent); fill-opacity: .3; stroke: var(--accent); }
        svg .closed { fill: var(--closed); fill-opacity: .35; } svg .series { fill: none; stroke-width: 1.8; }
        svg .s0 { stroke: #1f77b4; } svg .s1 { stroke: #d62728; } svg .s2 { stroke: #2ca02c; }
        svg .s3 { stroke: #9467bd; } svg .s4 { stroke: #e07b00; } svg .s5 { stroke: #7f7f7f; }
        table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 13px; max-width: 100%; }
        th, td { border-bottom: 1px solid var(--line); padding: .15rem .6rem; text-align: left; vertical-align: top;
          overflow-wrap: break-word; }
        td:last-child { overflow-wrap: anywhere; }
        th { color: var(--muted); font-weight: 600; } .n { text-align: right; font-variant-numeric: tabular-nums; }
        details { margin: .2rem 0 .5rem; } summary { cursor: pointer; color: var(--accent); font-size: 14px; }
        .check { margin: .4rem 0 .6rem; }
        .check-head { margin: 0; } .check-head code { font-size: 14px; font-weight: 600; }
        .badge { display: inline-block; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; padding: 0 .4rem;
          border-radius: 3px; color: #fff; background: var(--muted); }
        .badge.error { background: var(--bad); } .badge.warning { background: var(--warn); }
        .badge.stale { background: var(--stale); }
        ul.examples { margin: .1rem 0 0; padding-left: 1.2rem; font-size: 13px; }
        ul.examples li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .day { font-variant-numeric: tabular-nums; font-weight: 600; }
        .stale-list { font-size: 13px; }
        @media (max-width: 720px) { .strip { grid-template-columns: repeat(3, minmax(0, 1fr)); } }
        @media print {
          :root { --fg: #000; --muted: #444; --bg: #fff; --panel: #f3f3f3; --line: #ccc; --accent: #1f6f8b;
            --empty: #e9edf0; --hatch: #98a3ab; --stale: #d0342c; }
          svg .count { fill: #1c2328; } svg .count.on-dark { fill: #fff; }
          main { max-width: none; padding: 0; } nav, summary { display: none; }
          section, figure.chart, tr, .check { break-inside: avoid; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
