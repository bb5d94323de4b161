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
            let tree = try TreeImporter(content: .skeleton).importTree(contentsOf: dir)
            #expect(outline(tree) == "directory(directory,directory(directory(file),symlink),file,other)")
        }
    }

    @Test func namesThatAreNotUTF8AreEntriesLikeAnyOther() throws {
        // Regression: names were decoded into Swift strings, which replace bytes that are not
        // UTF-8 with U+FFFD, so the path built from one named no file ("cannot examine: No
        // such file or directory") and the whole import failed.
        try withTemporaryDirectory { (dir) throws in
            let names: [[UInt8]] = [[0xFF, 0xFE, 0x2D], [0x61, 0xC0, 0x80], [0xED, 0xA0, 0x80], Array("plain".utf8)]
            for name in names {
                let path = Array(dir.utf8) + [0x2F] + name + [0]
                let fd = path.withUnsafeBufferPointer { p in
                    p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_CREAT | O_WRONLY, 0o600) }
                }
                #expect(fd >= 0)
                close(fd)
            }
            // And a directory with such a name, holding a file.
            let sub = Array(dir.utf8) + [0x2F, 0x80, 0x81]
            #expect((sub + [0]).withUnsafeBufferPointer { p in p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { mkdir($0, 0o700) } } == 0)
            let inner = sub + Array("/f".utf8) + [0]
            let fd = inner.withUnsafeBufferPointer { p in p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_CREAT | O_WRONLY, 0o600) } }
            #expect(fd >= 0)
            close(fd)
            let tree = try TreeImporter(content: .skeleton).importTree(contentsOf: dir)
            // Sorted by bytes: 0x61 ("a"), "plain", 0x80 0x81 (the directory), 0xED, 0xFF.
            #expect(outline(tree) == "directory(file,file,directory(file),file,file)")
        }
    }

    @Test func aDirectoryIsDetected() throws {
        try withTemporaryDirectory { (dir) throws in
            #expect(ImportFormat.detect(path: dir) == .directory)
            #expect(try TreeImporter(content: .skeleton).importTree(contentsOf: dir).count == 1)
        }
    }

    @Test func aMissingPathIsAnErrorNamingIt() throws {
        let path = "/nonexistent/relative-view/\(UUID().uuidString)"
        let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path, format: .directory) }
        #expect(error.path == path)
        #expect(error.message.contains("No such file"), "\(error)")
    }

    @Test func readingADirectoryAsADocumentIsAnError() throws {
        try withTemporaryDirectory { (dir) throws in
            let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: dir, format: .xml) }
            #expect(error.path == dir)
            #expect(error.message.contains("directory"))
        }
    }

    @Test func anUnknownFormatIsAnError() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/notes"
            try "plain text".write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path) }
            #expect(error.message.contains("format"))
        }
    }
}
