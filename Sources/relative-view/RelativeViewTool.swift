import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelativeViewCore
import RelativeViewImport
import RelativeViewSnapshot

/// `relative-view`: the user's tool for documents and snapshots. `convert` reads a
/// document (XML, HTML, JSON) or a snapshot and writes it as another; `info` reads one and
/// says what it holds and what loading it took; `query` asks it an XPath question.
///
/// It imports no Foundation (the libraries under it import none either): a process of
/// this tool starts at a few megabytes, where one with Foundation starts past 20, and the
/// peak memory `info` reports is the tree's, not the runtime's.
@main
struct RelativeViewTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relative-view",
        abstract: "Convert, describe and query documents and snapshots of RelativeView trees.",
        discussion: """
            Bad input (a file that cannot be read or is malformed) is an error naming the \
            file, line and column, with exit status 1; a refused command line exits 64.
            """,
        version: "0.1.0",
        subcommands: [Convert.self, Info.self, Query.self])
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
        commandName: "convert",
        abstract: "Read a document or a snapshot and write it in another format.",
        discussion: """
            Formats come from the extensions: .xml (also .xhtml, .svg...), .html and .htm (read \
            only), .json, and .rvtree for a snapshot; --from and --to override them. OUT may \
            be - for standard output (with --to). The output is written beside OUT and renamed \
            over it when complete, so a failed conversion leaves no partial file. A document \
            of markup written as JSON is JsonML; JSON written as XML has an element per value.
            """)

    @OptionGroup var source: InputOptions

    @Argument(help: "The output file, or - for standard output.")
    var output: String

    @Option(help: "The output's format: xml, json or snapshot (default: from its extension).")
    var to: FileFormat?

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
        let tree = source.tree()
        do {
            switch target {
            case .snapshot:
                try tree.writeSnapshot(to: output)
            case .xml, .json:
                let format: ExportFormat = target == .xml ? .xml : .json
                if output == "-" {
                    let bytes = try tree.bytes(as: format)
                    guard Loading.writeAll(bytes, to: 1) else { Loading.fail("cannot write to standard output") }
                } else {
                    try tree.write(to: output, format: format)
                }
            case .html:
                preconditionFailure("refused by validate()")
            }
        } catch {
            Loading.fail("\(error)")
        }
    }

}

/// The input a subcommand reads, and how: its path, its format, what to keep of it, and
/// whether to show progress.
struct InputOptions: ParsableArguments {
    @Argument(help: "The input: a document or a snapshot (a pipe is read whole).")
    var input: String

    @Option(help: "The input's format: xml, html, json or snapshot (default: from its extension and first bytes).")
    var from: FileFormat?

    @Option(help: "What to keep of a document: whole (text, comments, every attribute, JSON values) or skeleton (names, id, class, tag, member names).")
    var content: ImportContent = .whole

    @Flag(help: "No progress line on standard error.")
    var quiet = false

    /// The input's tree; a message and exit 1 if it cannot be read.
    func tree() -> ViewTree {
        Loading.read(input, from: from, keeping: content, quiet: quiet)
    }
}

/// `relative-view info FILE`: what a document or a snapshot holds, and what loading it took.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Read a document or a snapshot and say what it holds and what loading it took.",
        discussion: """
            Prints the input's format, its nodes by kind (elements, texts, comments...), the \
            deepest node's depth, the seconds the load took (reading and parsing, or mapping \
            and checking a snapshot), the tree's memory and the process's peak resident \
            memory. --json prints one JSON object instead (the fields seconds, nodes, \
            peakResidentBytes and more), which scripts/import-vs-peers.sh reads.
            """)

    @OptionGroup var source: InputOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    mutating func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let tree = source.tree()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let peak = Loading.peakResidentBytes()
        // Nodes by type (a type's raw value is its number in the registry), then each
        // type's kind once: a kind is looked up by the type's name.
        var byType = [Int](repeating: 0, count: TypeRegistry.shared.count)
        var kindOfType = [NodeKind?](repeating: nil, count: byType.count)
        func count(_ node: NodeID) {
            let type = Int(tree.typeID(of: node).rawValue)
            byType[type] += 1
            if kindOfType[type] == nil { kindOfType[type] = tree.kind(of: node) }
        }
        for root in tree.roots {
            count(root)
            for node in tree.descendants(of: root) { count(node) }
        }
        var kinds = [Int](repeating: 0, count: NodeKind.allCases.count)
        for (type, n) in byType.enumerated() where n > 0 { kinds[kindOfType[type]!.rawValue] += n }
        let depth = tree._maximumDepth()
        let format = Loading.formatName(source.input, from: source.from)
        if json {
            var fields = ["\"format\": \"\(format)\"", "\"content\": \"\(format == "snapshot" ? "snapshot" : source.content.rawValue)\"",
                          "\"seconds\": \(Loading.fixed(seconds, 6))", "\"nodes\": \(tree.count)", "\"maximumDepth\": \(depth)",
                          "\"treeBytes\": \(tree.memoryFootprint)", "\"peakResidentBytes\": \(peak)"]
            for kind in NodeKind.allCases where kinds[kind.rawValue] > 0 { fields.append("\"\(kind)Nodes\": \(kinds[kind.rawValue])") }
            print("{" + fields.joined(separator: ", ") + "}")
        } else {
            print("\(source.input): \(format), \(tree.count) nodes, depth \(depth)")
            for kind in NodeKind.allCases where kinds[kind.rawValue] > 0 { print("  \(kind): \(kinds[kind.rawValue])") }
            print("loaded in \(Loading.fixed(seconds, 3)) s; tree \(Loading.megabytes(tree.memoryFootprint)), peak resident \(Loading.megabytes(peak))")
        }
    }
}

/// What the subcommands share: reading the input, messages, figures.
enum Loading {
    /// The tree of the document or snapshot at `input`; a message and exit 1 if it cannot
    /// be read. A progress line on standard error for an import past a second.
    static func read(_ input: String, from: FileFormat?, keeping kept: ImportContent, quiet: Bool) -> ViewTree {
        let format = from ?? FileFormat.detect(input)
        if format == .snapshot || (format == nil && ViewTree.isSnapshot(atPath: input)) {
            do {
                return try ViewTree(contentsOfSnapshot: input)
            } catch {
                fail("\(error)")
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
        do {
            let tree = try TreeImporter(content: kept).importTree(contentsOf: input, format: importFormat) { read, total in
                // A progress line for an import that takes more than a second.
                guard !quiet else { return }
                let now = clock.now
                guard now - start > .seconds(1), now - lastNote > .milliseconds(500) else { return }
                lastNote = now
                noted = true
                let of = total.map { " of \(megabytes($0)) (\(100 * read / max(1, $0))%)" } ?? ""
                printError("\r\u{1B}[Kreading \(input): \(megabytes(read))\(of)")
            }
            if noted { printError("\r\u{1B}[K") }
            return tree
        } catch {
            if noted { printError("\n") }
            fail("\(error)")
        }
    }

    /// The name of the input's format, as `info` reports it.
    static func formatName(_ input: String, from: FileFormat?) -> String {
        if let format = from ?? FileFormat.detect(input) { return format.rawValue }
        return ViewTree.isSnapshot(atPath: input) ? "snapshot" : "detected from its first bytes"
    }

    /// `value` with `digits` digits after the point.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0 ..< digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = String(scaled / Int(scale))
        guard digits > 0 else { return whole }
        let fraction = String(scaled % Int(scale))
        return whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) + " MB" }

    /// The most memory the process has had resident (`ru_maxrss`), in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

    static func printError(_ text: String) {
        _ = writeAll(Array(text.utf8), to: 2)
    }

    /// Writes `bytes` to the file descriptor `fd` whole (a pipe takes them in pieces);
    /// false on an error.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    /// Prints `message` as an error and exits 1 (bad input, a file that cannot be written).
    static func fail(_ message: String) -> Never {
        printError("error: \(message)\n")
        exit(1)
    }
}

extension ImportContent: ExpressibleByArgument {}
