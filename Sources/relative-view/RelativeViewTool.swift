import ArgumentParser
import Foundation
import RelativeViewCore
import RelativeViewImport
import RelativeViewSnapshot

/// `relative-view`: the user's tool for documents and snapshots. `convert` reads a
/// document (XML, HTML, JSON) or a snapshot and writes it as another; the query
/// subcommands come next.
@main
struct RelativeViewTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relative-view",
        abstract: "Convert documents and snapshots of RelativeView trees.",
        discussion: """
            Bad input (a file that cannot be read or is malformed) is an error naming the \
            file, line and column, with exit status 1; a refused command line exits 64.
            """,
        version: "0.1.0",
        subcommands: [Convert.self])
}

/// The formats `convert` reads and writes.
enum FileFormat: String, ExpressibleByArgument, CaseIterable {
    case xml, html, json, snapshot

    /// The format a path's extension names, or `nil`.
    static func detect(_ path: String) -> FileFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "xml", "xhtml", "svg", "xsd", "xsl", "rss", "atom", "plist": return .xml
        case "html", "htm": return .html
        case "json": return .json
        case "rvtree", "rvsnap", "snapshot": return .snapshot
        default: return nil
        }
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a document or a snapshot and write it in another format.",
        discussion: """
            Formats come from the extensions: .xml (also .xhtml, .svg...), .html and .htm (read \
            only), .json, and .rvtree for a snapshot; --from and --to override them. OUT may \
            be - for standard output (with --to). The output is written beside OUT and renamed \
            over it when complete, so a failed conversion leaves no partial file. A document \
            of markup written as JSON is JsonML; JSON written as XML has an element per value.
            """)

    @Argument(help: "The input: a document or a snapshot (a pipe is read whole).")
    var input: String

    @Argument(help: "The output file, or - for standard output.")
    var output: String

    @Option(help: "The input's format: xml, html, json or snapshot (default: from its extension and first bytes).")
    var from: FileFormat?

    @Option(help: "The output's format: xml, json or snapshot (default: from its extension).")
    var to: FileFormat?

    @Option(help: "What to keep of a document: whole (text, comments, every attribute, JSON values) or skeleton (names, id, class, tag, member names).")
    var content: ImportContent = .whole

    @Flag(help: "No progress line on standard error.")
    var quiet = false

    func validate() throws {
        let target = to ?? FileFormat.detect(output)
        guard let target else {
            throw ValidationError("cannot tell the output's format from '\(output)': give --to xml, json or snapshot")
        }
        if target == .html { throw ValidationError("HTML is read, not written: write .xml (XHTML) or .json") }
        if target == .snapshot && output == "-" { throw ValidationError("a snapshot is written to a file, not to standard output") }
    }

    mutating func run() throws {
        let target = (to ?? FileFormat.detect(output))!
        let tree = try read(keeping: content)
        do {
            switch target {
            case .snapshot:
                try tree.writeSnapshot(to: output)
            case .xml, .json:
                let format: ExportFormat = target == .xml ? .xml : .json
                if output == "-" {
                    FileHandle.standardOutput.write(Data(try tree.bytes(as: format)))
                } else {
                    try tree.write(to: output, format: format)
                }
            case .html:
                preconditionFailure("refused by validate()")
            }
        } catch {
            Self.fail("\(error)")
        }
    }

    /// The input's tree.
    private func read(keeping kept: ImportContent) throws -> ViewTree {
        let format = from ?? FileFormat.detect(input)
        if format == .snapshot || (format == nil && ViewTree.isSnapshot(atPath: input)) {
            do {
                return try ViewTree(contentsOfSnapshot: input)
            } catch {
                Self.fail("\(error)")
            }
        }
        let importFormat: ImportFormat? = switch format {
        case .xml: .xml
        case .html: .html
        case .json: .json
        case .snapshot, nil: nil
        }
        let clock = ContinuousClock()
        let start = clock.now
        var lastNote = start
        var noted = false
        let label = input
        let quiet = self.quiet
        do {
            let tree = try TreeImporter(content: kept).importTree(contentsOf: input, format: importFormat) { read, total in
                // A progress line for an import that takes more than a second.
                guard !quiet else { return }
                let now = clock.now
                guard now - start > .seconds(1), now - lastNote > .milliseconds(500) else { return }
                lastNote = now
                noted = true
                let of = total.map { " of \(Self.megabytes($0)) (\(100 * read / max(1, $0))%)" } ?? ""
                FileHandle.standardError.write(Data("\r\u{1B}[Kreading \(label): \(Self.megabytes(read))\(of)".utf8))
            }
            if noted { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            return tree
        } catch {
            if noted { FileHandle.standardError.write(Data("\n".utf8)) }
            Self.fail("\(error)")
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    /// Prints `message` as an error and exits 1 (bad input, a file that cannot be written).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        Foundation.exit(1)
    }
}

extension ImportContent: ExpressibleByArgument {}
