// Built with the RealText trait only (Package.swift), which links FreeType and HarfBuzz; without it
// TextEngine says why a label with a font cannot be measured.
#if RealText
import CFreeType
import CHarfBuzz
import Foundation
import LayoutEngine

/// A font face opened by HarfBuzz (advances, kerning, ligatures: its OpenType shaper at the
/// face's own units per em, no hinting) with FreeType's metrics for the line height.
public struct LoadedFace: @unchecked Sendable {
    public let family: String
    public let path: String
    public let faceIndex: Int
    /// HarfBuzz's font at a scale of `unitsPerEm` (advances come in font units).
    let font: OpaquePointer
    public let unitsPerEm: Int
    /// FreeType's `ascender`, `descender` and `height` (ascender - descender + line gap), font units.
    public let ascender: Int
    public let descender: Int
    public let height: Int

    /// The font's line height at `size` points: FreeType's `height` scaled.
    public func lineHeight(size: Double) -> Double { Double(height) * size / Double(unitsPerEm) }
}

/// The font families labels may name, each one file from a Debian package (docs/text.md), and
/// the faces opened so far: each file is opened once per process and shared (HarfBuzz fonts are
/// immutable once made, so several measurers may shape with them at once).
public final class FontLibrary: @unchecked Sendable {
    public struct Family: Sendable {
        public var name: String
        /// The file below one of the font directories.
        public var file: String
        public var faceIndex: Int
        /// The Debian package that installs it.
        public var package: String
        /// The Homebrew cask that installs it on macOS, if there is one.
        public var cask: String?

        /// How to install the file, for the error of a missing one.
        var installHint: String {
            #if os(macOS)
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let install = cask.map { "brew install --cask \($0) (Debian's \(package))" }
                ?? "no Homebrew cask has it: copy \(name) from Debian's \(package) into ~/Library/Fonts"
            return "\(install), or set LAYOUT_BENCH_FONT_DIRS; scripts/lib.sh's ensure_text installs it"
            #else
            return "install the Debian package \(package)"
            #endif
        }
    }

    public static let families: [Family] = [
        Family(name: "DejaVu Sans", file: "truetype/dejavu/DejaVuSans.ttf", faceIndex: 0, package: "fonts-dejavu-core", cask: "font-dejavu"),
        Family(name: "DejaVu Serif", file: "truetype/dejavu/DejaVuSerif.ttf", faceIndex: 0, package: "fonts-dejavu-core", cask: "font-dejavu"),
        Family(name: "WenQuanYi Micro Hei", file: "truetype/wqy/wqy-microhei.ttc", faceIndex: 0, package: "fonts-wqy-microhei", cask: nil),
    ]

    /// Where the files are looked for: LAYOUT_BENCH_FONT_DIRS (colon-separated, empty entries
    /// skipped) when set, else `systemDirectories`. Empty when the variable names no directory
    /// (`:`), which `face(family:)` says.
    public static var directories: [String] {
        if let dirs = ProcessInfo.processInfo.environment["LAYOUT_BENCH_FONT_DIRS"], !dirs.isEmpty {
            return dirs.split(separator: ":").map(String.init)
        }
        return systemDirectories
    }

    /// The font folders of the OS: on macOS the user's, the machine's and the system's
    /// Library/Fonts (where Homebrew's font casks and installers put files) and Homebrew's
    /// share/fonts (Apple silicon, then Intel); elsewhere Debian's /usr/share/fonts and
    /// /usr/local/share/fonts.
    public static var systemDirectories: [String] {
        #if os(macOS)
        let home = ProcessInfo.processInfo.environment["HOME"].map { [$0 + "/Library/Fonts"] } ?? []
        return home + ["/Library/Fonts", "/System/Library/Fonts", "/System/Library/Fonts/Supplemental",
                       "/opt/homebrew/share/fonts", "/usr/local/share/fonts"]
        #else
        return ["/usr/share/fonts", "/usr/local/share/fonts"]
        #endif
    }

    /// Where a family's file may be in `directory`: below it as Debian installs it
    /// (`truetype/dejavu/DejaVuSans.ttf`), then directly in it, as macOS's font folders hold files.
    static func candidates(of family: Family, in directory: String) -> [String] {
        let name = family.file.split(separator: "/").last.map(String.init) ?? family.file
        return [directory + "/" + family.file, directory + "/" + name]
    }

    /// The largest font file read (the families' files are a few megabytes).
    public static let maximumFileBytes = 64 << 20

    public static let shared = FontLibrary()

    private let lock = NSLock()
    private var faces: [String: LoadedFace] = [:]

    /// The family's face, opened on first use; throws one line naming the family and what is
    /// missing.
    public func face(family name: String) throws(LabelTextError) -> LoadedFace {
        lock.lock()
        defer { lock.unlock() }
        if let face = faces[name] { return face }
        guard let family = Self.families.first(where: { $0.name == name }) else {
            let known = Self.families.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw LabelTextError("unknown font family \"\(name)\" (known: \(known))")
        }
        let directories = Self.directories
        guard !directories.isEmpty else {
            throw LabelTextError("font \"\(name)\" not found: LAYOUT_BENCH_FONT_DIRS names no directory (colon-separated directories; unset, it is \(Self.systemDirectories.joined(separator: ":")))")
        }
        let candidates = directories.flatMap { Self.candidates(of: family, in: $0) }
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            throw LabelTextError("font \"\(name)\" not found: no readable \(candidates.joined(separator: " or ")) (\(family.installHint))")
        }
        let face = try Self.open(path: path, faceIndex: family.faceIndex, family: name)
        faces[name] = face
        return face
    }

    /// Opens `path` with FreeType (metrics) and HarfBuzz (shaping), both from the file mapped
    /// once by `mapFontFile` (never opened blocking: a FIFO is refused, not waited on).
    public static func open(path: String, faceIndex: Int, family: String) throws(LabelTextError) -> LoadedFace {
        let file = try mapFontFile(path, family: family)
        // HarfBuzz's blob owns the mapping from here on (read-only, no copy: only the pages the
        // shaper reads become resident, as with hb_blob_create_from_file) and unmaps it when its
        // last font goes; hb_blob_create_or_fail unmaps it too if it fails.
        let blob = hb_blob_create_or_fail(
            file.start.assumingMemoryBound(to: CChar.self), UInt32(file.count), HB_MEMORY_MODE_READONLY,
            FontFileMapping.box(file), unmapFontFile)
        guard let blob else {
            throw LabelTextError("HarfBuzz cannot read the font file \(path) of \"\(family)\"")
        }
        defer { hb_blob_destroy(blob) }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw LabelTextError("FreeType cannot start") }
        defer { FT_Done_FreeType(library) }
        // FreeType reads the face from the mapping, which the blob keeps until after it is closed.
        var ftFace: FT_Face?
        let error = FT_New_Memory_Face(library, file.start.assumingMemoryBound(to: FT_Byte.self), FT_Long(file.count), FT_Long(faceIndex), &ftFace)
        guard error == 0, let ftFace else {
            throw LabelTextError("FreeType cannot open the font file \(path) of \"\(family)\" (FreeType error \(error))")
        }
        defer { FT_Done_Face(ftFace) }
        let upem = Int(ftFace.pointee.units_per_EM)
        guard upem > 0 else {
            throw LabelTextError("the font file \(path) of \"\(family)\" has no units per em (not a scalable font)")
        }
        let (ascender, descender, height) = (Int(ftFace.pointee.ascender), Int(ftFace.pointee.descender), Int(ftFace.pointee.height))
        guard let hbFace = hb_face_create(blob, UInt32(faceIndex)) else { throw LabelTextError("HarfBuzz cannot open \(path)") }
        defer { hb_face_destroy(hbFace) }
        guard Int(hb_face_get_upem(hbFace)) == upem, hb_face_get_glyph_count(hbFace) > 0 else {
            throw LabelTextError("HarfBuzz and FreeType disagree on the font file \(path) of \"\(family)\"")
        }
        guard let font = hb_font_create(hbFace) else { throw LabelTextError("HarfBuzz cannot make a font of \(path)") }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        return LoadedFace(family: family, path: path, faceIndex: faceIndex, font: font, unitsPerEm: upem,
                          ascender: ascender, descender: descender, height: height)
    }

    /// The font file at `path`, checked as the harness checks every input: opened without
    /// blocking (`O_NONBLOCK`), only a non-empty regular file of at most `maximumFileBytes` (a
    /// FIFO with no writer or a device would hang the load forever or never end), then mapped
    /// read-only. The caller unmaps it (`unmapFontFile`, through HarfBuzz's blob).
    static func mapFontFile(_ path: String, family: String) throws(LabelTextError) -> (start: UnsafeMutableRawPointer, count: Int) {
        func failure(_ reason: String) -> LabelTextError {
            LabelTextError("cannot read the font file \(path) of \"\(family)\": \(reason)")
        }
        let descriptor = openWithoutBlocking(path)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw failure("it is not a regular file (a device, a FIFO or a socket never ends)") }
        guard Int(status.st_size) <= maximumFileBytes else { throw failure("it is larger than \(maximumFileBytes) bytes") }
        guard status.st_size > 0 else { throw failure("it is empty") }
        let count = Int(status.st_size)
        guard let start = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), start != MAP_FAILED else {
            throw failure(String(cString: strerror(errno)))
        }
        return (start, count)
    }

    /// Checks a label's font as a scenario declares it: a known family, opened, and a size in
    /// (0, `TextLimits.maximumPointSize`].
    public func check(_ font: LabelFont) throws(LabelTextError) -> LoadedFace {
        guard font.size > 0, font.size <= TextLimits.maximumPointSize else {
            throw LabelTextError("point size \(font.size) is outside (0, \(Int(TextLimits.maximumPointSize))]")
        }
        return try face(family: font.family)
    }
}

/// A mapped font file as HarfBuzz's destroy callback receives it: one pointer to its start and length.
private enum FontFileMapping {
    static func box(_ file: (start: UnsafeMutableRawPointer, count: Int)) -> UnsafeMutableRawPointer {
        let box = UnsafeMutablePointer<(start: UnsafeMutableRawPointer, count: Int)>.allocate(capacity: 1)
        box.initialize(to: file)
        return UnsafeMutableRawPointer(box)
    }
}

/// HarfBuzz's destroy callback of a font file's blob: unmaps the file and frees its box.
private func unmapFontFile(_ box: UnsafeMutableRawPointer?) {
    guard let box = box?.assumingMemoryBound(to: (start: UnsafeMutableRawPointer, count: Int).self) else { return }
    munmap(box.pointee.start, box.pointee.count)
    box.deinitialize(count: 1)
    box.deallocate()
}

/// open(2) for reading without blocking, under a name `FontLibrary.open` does not shadow.
private func openWithoutBlocking(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
}
#endif
