import CLibXML2

/// libxml2 must be initialised once before documents are parsed on several threads: its own
/// lazy initialisation races when two threads parse first at the same time. A global `let` is
/// initialised exactly once, under Swift's own lock. Its own printing of errors is turned off:
/// every problem with a page reaches the user as Commissary's one line naming the page.
private let libxml2Initialised: Bool = {
    xmlInitParser()
    commissary_xml_silence_errors()
    return true
}()

func ensureLibXML2Initialised() {
    _ = libxml2Initialised
}

/// libxml2 returns `xmlChar *` strings that the caller owns; this copies one into Swift and
/// frees it through the shim (Swift 6 cannot call the `xmlFree` function-pointer global).
func takeXMLString(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
    guard let pointer else { return nil }
    defer { commissary_xmlFree(pointer) }
    return String(cString: pointer)
}

/// Reads a libxml2-owned `const xmlChar *` without taking ownership.
func borrowXMLString(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
}
