/// Adapters for FoodPro, the menu system behind UCLA's menus until 2016 and many other
/// campuses still. Its pages carry almost no classes, so these adapters read printed labels
/// ("Serving Size", "INGREDIENTS:") and link targets (`label.asp?...RecNumAndPort=153002*4`).
public enum FoodPro {
    public static let sourceName = "foodpro"
}
