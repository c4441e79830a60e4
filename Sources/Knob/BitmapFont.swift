/// A tiny built-in 3×5 pixel font for the few glyphs a contact sheet's
/// labels need (digits, `. - + °`, `s t r p` and the space), so labels need
/// no font library or font file. Each glyph is drawn as square blocks of
/// `scale` pixels, with one blank column between glyphs.
public enum BitmapFont {
    /// Glyph width and height in font pixels (before scaling).
    public static let glyphWidth = 3
    public static let glyphHeight = 5
    /// Horizontal advance per glyph in font pixels (glyph plus one blank column).
    public static let advance = glyphWidth + 1

    /// Rows top to bottom; bit 2 is the left column.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111],
        "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111],
        "3": [0b111, 0b001, 0b011, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001],
        "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111],
        "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111],
        "9": [0b111, 0b101, 0b111, 0b001, 0b111],
        ".": [0b000, 0b000, 0b000, 0b000, 0b010],
        "-": [0b000, 0b000, 0b111, 0b000, 0b000],
        "+": [0b000, 0b010, 0b111, 0b010, 0b000],
        "°": [0b010, 0b101, 0b010, 0b000, 0b000],
        // An s: top stroke right, then left, right, bottom stroke left. Never
        // ink down the middle column on every row (that read as "ƒ").
        "s": [0b000, 0b011, 0b100, 0b001, 0b110],
        "t": [0b010, 0b111, 0b010, 0b010, 0b011],
        "r": [0b000, 0b101, 0b110, 0b100, 0b100],
        "p": [0b000, 0b111, 0b101, 0b111, 0b100],
        " ": [0, 0, 0, 0, 0],
    ]

    /// True when every character of `text` has a glyph.
    public static func canDraw(_ text: String) -> Bool {
        text.allSatisfy { glyphs[$0] != nil }
    }

    /// Width of `text` in image pixels at `scale` (no trailing blank column).
    public static func width(of text: String, scale: Int) -> Int {
        text.isEmpty ? 0 : (text.count * advance - 1) * scale
    }

    /// Draws `text` with its top-left corner at (`x`, `y`) in `colour`,
    /// clipped to the image. Characters without a glyph are drawn as blanks.
    public static func draw(_ text: String, at x: Int, _ y: Int, scale: Int, colour: RGBA8,
                            into image: inout RGBAImage) {
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            let left = x + index * advance * scale
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (0b100 >> UInt8(column)) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = left + column * scale + dx, py = y + row * scale + dy
                            if px >= 0, py >= 0, px < image.width, py < image.height { image[px, py] = colour }
                        }
                    }
                }
            }
        }
    }
}
