import FoodModel
import HTML
import SourceReading

extension FoodPro {
    /// The web code a FoodPro legend entry stands for: FoodPro prints the meaning, not the code
    /// (UCLA's `alt="Vegan Menu Option"`, Berkeley's legend word "Vegan"), while the snapshot
    /// and its checks speak UCLA's web codes (`VG`).
    ///
    /// The wording is matched against `UCLAWebCodes` labels after dropping FoodPro's padding
    /// ("… Menu Option", "Contains …"), any case. Wording that matches no label is kept raw, so
    /// that the pipeline's unknown-code warning still reports a mark nobody has mapped yet.
    public static func webCode(forLegend wording: String) -> String {
        var meaning = wording.whitespaceNormalized
        for padding in [/(?i)\s+menu\s+option$/, /(?i)\s+option$/] {
            meaning = meaning.replacing(padding, with: "")
        }
        meaning = meaning.replacing(/(?i)^contains\s+/, with: "")
        let folded = meaning.lowercased()
        return UCLAWebCodes.all.first { $0.label.lowercased() == folded }?.code ?? wording.whitespaceNormalized
    }
}
