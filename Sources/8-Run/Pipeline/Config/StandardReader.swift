import Basics
import FoodModel
import Foundation
import YAMLConfig
import Nutrition

/// Reads daily-value standards from `standards/<name>.yml` beside the pipeline file, or from a
/// path, with the same located errors as pipeline files.
public enum StandardReader {
    /// A standard named on the command line: a `.yml` path, or a name looked up in
    /// `standards/` under `folder` (the `Pipelines` folder).
    public static func load(_ name: String, pipelinesFolder folder: URL) throws -> DailyValueStandard {
        let file = name.hasSuffix(".yml") || name.contains("/")
            ? URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            : folder.appendingPathComponent("standards/\(name).yml")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Failure.pipelineFile("no daily-value standard \"\(name)\" here", file: file.path)
        }
        return try read(file)
    }

    static func read(named value: YAMLValue, folder: URL) throws -> DailyValueStandard {
        let name = try value.string()
        let file = DataFolders.locate(name.hasSuffix(".yml") || name.contains("/") ? name : "standards/\(name).yml",
                                      beside: folder)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw value.error("no daily-value standard \"\(name)\" (looked for \(file.path))")
        }
        return try read(file)
    }

    static func read(_ file: URL) throws -> DailyValueStandard {
        let top = try YAMLFile.mapping(of: file, what: "daily-value standard")
        try top.allowOnly(["standard", "description", "daily_values", "daily_reference_values"])
        var values: [NutrientKey: DailyValueStandard.Value] = [:]
        let table = try YAMLMapping(top.required("daily_values"))
        for (key, entry) in table.entries {
            let parts = try entry.string().split(separator: " ")
            guard parts.count == 2, let amount = Double(parts[0]), amount.isFinite, amount > 0, amount <= 1_000_000,
                  let unit = NutrientUnit(label: String(parts[1]))
            else {
                throw entry.error("expected an amount and a unit such as \"65 g\" (units: g, mg, mcg, kcal, IU)")
            }
            values[NutrientKey(key)] = .init(amount: amount, unit: unit)
        }
        // `daily_reference_values`: the nutrients declared to the nearest 1% (DRVs); without
        // the key, the macronutrients are.
        var referenceValues = LabelRoundingRule.macronutrients
        if let listed = try top.optional("daily_reference_values") {
            referenceValues = []
            for entry in try listed.sequence() {
                let key = NutrientKey(try entry.string())
                guard values[key] != nil else {
                    throw entry.error("\(key.rawValue) has no daily value in daily_values, so it cannot be a daily reference value")
                }
                referenceValues.insert(key)
            }
        }
        return DailyValueStandard(
            name: try top.required("standard").string(),
            description: try top.optional("description")?.string() ?? "",
            values: values, dailyReferenceValues: referenceValues)
    }
}
