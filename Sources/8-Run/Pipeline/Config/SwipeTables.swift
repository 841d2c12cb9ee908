import FoodModel
import Foundation
import YAMLConfig
import Snapshot
import Swipes

/// The `swipes:` section of a pipeline file: which plans file and which term calendars the
/// compute stage builds the balance tables from.
public struct SwipeSettings: Hashable, Sendable {
    public var plansFile: URL
    public var termFiles: [URL]
    public var catalog: PlanCatalog
    public var terms: [Term]

    public init(plansFile: URL, termFiles: [URL], catalog: PlanCatalog, terms: [Term]) {
        self.plansFile = plansFile
        self.termFiles = termFiles
        self.catalog = catalog
        self.terms = terms
    }

    /// Every plan over every day of every term, with each day's meal periods taken from the
    /// published menus (`menus`: the meals each day lists, in serving order) where there is one.
    public func balances(menus: [ServiceDate: [String]]) -> [SwipeBalance] {
        SwipeTable.compute(plans: catalog.plans, terms: terms, periods: catalog.periods, menus: menus)
    }

    /// The snapshot rows of the plans and of the given balances.
    public func rows(_ balances: [SwipeBalance]) -> (plans: [MealPlanRow], balances: [SwipeBalanceRow]) {
        let plans = catalog.plans.map { plan in
            MealPlanRow(
                code: plan.code, name: plan.name, kind: plan.kind.rawValue, weeklySwipes: plan.weeklySwipes,
                dailySwipes: plan.dailySwipes, termPool: plan.termPool,
                swipesPerTerm: plan.swipesPerTerm(weeksPerTerm: catalog.weeksPerTerm),
                annualPrice: plan.annualPriceCents.map { Double($0) / 100 }, priceYear: plan.priceYear,
                pricePerSwipe: catalog.pricePerSwipe(of: plan))
        }
        let rows = balances.map { row in
            SwipeBalanceRow(
                plan: row.plan, term: row.term, date: row.date.description, weekday: row.date.isoWeekday,
                week: row.week.ordinal, weekLabel: row.week.description, position: row.position,
                period: row.period, periodSource: row.periodSource.rawValue, swipes: row.swipes,
                balance: row.balance)
        }
        return (plans, rows)
    }

    /// Reads the section: `plans` is one file, `terms` one file or a list, both relative to the
    /// pipeline file's folder.
    static func read(_ node: YAMLValue, folder: URL) throws -> SwipeSettings {
        let map = try YAMLMapping(node)
        try map.allowOnly(["plans", "terms"])
        let plansFile = try file(map.required("plans"), folder: folder)
        let termsNode = try map.required("terms")
        let termNodes: [YAMLValue]
        if case .scalar = termsNode.node { termNodes = [termsNode] } else { termNodes = try termsNode.sequence() }
        guard !termNodes.isEmpty else { throw termsNode.error("needs at least one term calendar") }
        let termFiles = try termNodes.map { try file($0, folder: folder) }
        var terms: [Term] = []
        for (url, node) in zip(termFiles, termNodes) {
            for term in try SwipesReader.terms(url) {
                guard !terms.contains(where: { $0.name == term.name }) else {
                    throw node.error("two terms are named \"\(term.name)\"")
                }
                // A day in two terms would have two balances for the same plan and period.
                if let other = terms.first(where: { $0.firstTableDay <= term.lastDay && term.firstTableDay <= $0.lastDay }) {
                    throw node.error("\(term.name) overlaps \(other.name) (\(other.firstTableDay) to \(other.lastDay))")
                }
                terms.append(term)
            }
        }
        return SwipeSettings(plansFile: plansFile, termFiles: termFiles,
                             catalog: try SwipesReader.plans(plansFile), terms: terms)
    }

    private static func file(_ node: YAMLValue, folder: URL) throws -> URL {
        let url = DataFolders.locate(try node.string(), beside: folder)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw node.error("no such file: \(url.path)")
        }
        return url
    }
}
