import LayoutEngine

/// Whether this build measures labels with a font, and the one place the harness gets a text
/// measurer from (docs/text.md).
///
/// The native text stack (HarfBuzz, FreeType, ICU) is the package trait `RealText`, on by
/// default: a package that measures no real text depends on LayoutBench with `traits: []` and
/// neither builds against nor links the three libraries (docs/your-layout.md). Such a build
/// refuses a label with a font when its scenario loads, with `missingTrait`; it never falls back
/// to the advance table.
public enum TextEngine {
    /// The trait that builds the text engine, as Package.swift and `--traits` name it.
    public static let trait = "RealText"

    /// Why a label with a font cannot be measured in a build without the trait.
    public static let missingTrait = LabelTextError(
        "a label with a font needs real text, which this build of LayoutBench leaves out: build it with its package trait "
            + "\(trait) (the default; a dependent package turns it on with traits: [\"\(trait)\"]) and HarfBuzz, FreeType "
            + "and ICU installed (docs/text.md)")

    /// A new text measurer (`ShapedTextMeasurer`), its answers cached when `caching` is on;
    /// `missingTrait` in a build without the text engine.
    public static func makeMeasurer(caching: Bool) throws(LabelTextError) -> any LabelTextMeasuring {
        #if RealText
        return try ShapedTextMeasurer(caching: caching)
        #else
        throw missingTrait
        #endif
    }
}
