/// The kinds of input ``TreeImporter`` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// XML or XHTML, parsed strictly (well-formedness errors are errors): each element is a
    /// node whose type is its name as written (`svg:rect`), its tag the integer value of its
    /// `tag` attribute (else 0).
    case xml
    /// HTML as found in the wild (unclosed `<p>` and `<li>`, void elements, implied
    /// `<html>` and `<body>`), parsed leniently by libxml2's HTML parser: element names are
    /// lowercase, tags as for XML.
    case html
    /// JSON: every object, array and value is a node typed `object`, `array`, `string`,
    /// `number`, `bool` or `null`; object members in document order; tags are 0.
    case json
    /// A directory tree, symlinks not followed: every entry is a node typed `directory`,
    /// `file`, `symlink` or `other` (devices, sockets, FIFOs), children sorted by name;
    /// tags are 0.
    case directory

    /// The format of `path`: a directory, else by extension (`.xml`, `.xhtml`, `.svg`,
    /// `.rss`, `.atom`, `.xsd`, `.xsl`, `.plist`; `.html`, `.htm`; `.json`), else from the
    /// first bytes (`{` or `[` is JSON; `<!DOCTYPE html` or `<html` is HTML; `<` is XML).
    /// `nil` if none of these tells. Only a regular file's bytes are read: a pipe's first
    /// bytes would be gone for whoever reads it next (``TreeImporter`` reads a pipe whole
    /// and tells its format from what it read).
    ///
    /// - Complexity: O(1): reads at most the first 512 bytes.
    public static func detect(path: String) -> ImportFormat? {
        var info = stat()
        let kind = stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        if kind == S_IFDIR { return .directory }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: ".") {
            switch name[name.index(after: dot)...].lowercased() {
            case "xml", "xhtml", "svg", "rss", "atom", "xsd", "xsl", "xslt", "plist", "kml", "gpx": return .xml
            case "html", "htm": return .html
            case "json", "geojson": return .json
            default: break
            }
        }
        guard kind == S_IFREG, let head = try? _FileReader(path: path).readPrefix(512) else { return nil }
        return detect(prefix: head)
    }

    /// The format that the first bytes of a document suggest, or `nil`.
    ///
    /// - Complexity: O(prefix.count)
    public static func detect(prefix: some Collection<UInt8>) -> ImportFormat? {
        var bytes = Array(prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let first = bytes.firstIndex(where: { !_isJSONWhitespace($0) }) else { return nil }
        switch bytes[first] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"):
            let text = String(decoding: bytes[first...], as: UTF8.self).lowercased()
            return text.hasPrefix("<!doctype html") || text.hasPrefix("<html") ? .html : .xml
        default: return nil
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
