import Foundation
import RelativeViewCore
import RelativeViewImport
import Testing

@Suite struct DirectoryImportTests {
    @Test func entriesBecomeNodesSortedByNameAndSymlinksAreNotFollowed() throws {
        try withTemporaryDirectory { (dir) throws in
            let fm = FileManager.default
            try fm.createDirectory(atPath: dir + "/b/inner", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
            #expect(fm.createFile(atPath: dir + "/b/inner/f.txt", contents: Data("x".utf8)))
            #expect(fm.createFile(atPath: dir + "/c", contents: nil))
            // A link back up: following it would loop.
            try fm.createSymbolicLink(atPath: dir + "/b/up", withDestinationPath: "..")
            #expect(mkfifo(dir + "/fifo", 0o600) == 0)
            let tree = try TreeImporter().importTree(contentsOf: dir)
            #expect(outline(tree) == "directory(directory,directory(directory(file),symlink),file,other)")
        }
    }

    @Test func aDirectoryIsDetected() throws {
        try withTemporaryDirectory { (dir) throws in
            #expect(ImportFormat.detect(path: dir) == .directory)
            #expect(try TreeImporter().importTree(contentsOf: dir).count == 1)
        }
    }

    @Test func aMissingPathIsAnErrorNamingIt() throws {
        let path = "/nonexistent/relative-view/\(UUID().uuidString)"
        let error = try #require(throws: ImportError.self) { try TreeImporter().importTree(contentsOf: path, format: .directory) }
        #expect(error.path == path)
        #expect(error.message.contains("No such file"), "\(error)")
    }

    @Test func readingADirectoryAsADocumentIsAnError() throws {
        try withTemporaryDirectory { (dir) throws in
            let error = try #require(throws: ImportError.self) { try TreeImporter().importTree(contentsOf: dir, format: .xml) }
            #expect(error.path == dir)
            #expect(error.message.contains("directory"))
        }
    }

    @Test func anUnknownFormatIsAnError() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/notes"
            try "plain text".write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ImportError.self) { try TreeImporter().importTree(contentsOf: path) }
            #expect(error.message.contains("format"))
        }
    }
}
