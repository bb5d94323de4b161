/// How much of a document an import keeps.
///
/// ``whole`` is the default: everything a round trip needs. ``skeleton`` keeps what a
/// view-tree workload asks (the shape, names, and `id`, `class`, `tag` or a JSON member
/// name), in about half the memory and time.
public enum ImportContent: String, Sendable, CaseIterable {
    /// Everything the document holds.
    ///
    /// - Markup: each element (its type the name as written, a prefix included) with
    ///   every attribute: its namespace declarations first, then the others, each in
    ///   document order (as libxml2 reports them), text as nodes of type `#text`
    ///   (references decoded, line ends normalized, whitespace between elements kept),
    ///   CDATA sections (`#cdata-section`), comments (`#comment`) and processing
    ///   instructions (`?target`), those outside the root element as roots before or
    ///   after it. An element's `tag` attribute also sets its tag. Not kept: the XML
    ///   declaration (a document is written back as UTF-8) and the document type
    ///   declaration (its entities are expanded where they are used).
    /// - JSON: every value with its `ViewTree.value(of:)`: a string decoded, a number
    ///   as written, `true` or `false`; member names in order, duplicates kept.
    case whole
    /// Names and shape only: elements with their `id`, `class` and `tag` (markup), values
    /// with their types and member names (JSON); no text, comments or other attributes.
    case skeleton
}
