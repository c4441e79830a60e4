@testable import Knob
import Testing

/// Contact-sheet labels (time, roll and pitch under each frame) and
/// `columns`: regression for sheets that carried no labels.
@Suite(.timeLimit(.minutes(2))) struct ContactSheetLabelTests {
    @Test func labelTextGivesTimeAndWholeDegrees() {
        #expect(ContactSheet.labelText(secondsSinceStart: 12.345, rollRadians: -0.2094, pitchRadians: .pi / 4)
                == ["12.35 s", "r-12° p+45°"])
        #expect(ContactSheet.labelText(secondsSinceStart: 0, rollRadians: 0, pitchRadians: -.pi / 2)
                == ["0.00 s", "r+0° p-90°"])
        #expect(ContactSheet.labelText(secondsSinceStart: 3.07, rollRadians: .nan, pitchRadians: 1)
                == ["3.07 s", "r? p+57°"])
        for line in ContactSheet.labelText(secondsSinceStart: 61.5, rollRadians: 3, pitchRadians: -3) {
            #expect(BitmapFont.canDraw(line) || line.contains("?"))
        }
    }

    @Test func theFontDrawsTheGlyphsBitmap() {
        var image = RGBAImage.filled(width: 8, height: 6, with: RGBA8(grey: 0))
        BitmapFont.draw("1-", at: 0, 0, scale: 1, colour: RGBA8(grey: 255), into: &image)
        // "1": 010 / 110 / 010 / 010 / 111; then one blank column; "-" on the middle row.
        let lit = (0..<5).map { y in (0..<7).map { x in image[x, y].r == 255 ? "#" : "." }.joined() }
        #expect(lit == [".#.....", "##.....", ".#..###", ".#.....", "###...."])
        #expect(BitmapFont.width(of: "1-", scale: 2) == 14)
    }

    /// The seconds' "s" read as "ƒ": its zig-zag inked the middle
    /// column on every row, a stem like f's.
    @Test func theSecondsSReadsAsAnS() {
        var image = RGBAImage.filled(width: 3, height: 5, with: RGBA8(grey: 0))
        BitmapFont.draw("s", at: 0, 0, scale: 1, colour: RGBA8(grey: 255), into: &image)
        let lit = (0..<5).map { y in (0..<3).map { x in image[x, y].r == 255 ? "#" : "." }.joined() }
        #expect(lit == ["...", ".##", "#..", "..#", "##."])
        #expect(!(1..<5).allSatisfy { image[1, $0].r == 255 }, "a stem down the middle reads as ƒ")
    }

    @Test func labelsGoUnderTheirFrameAndWidenNarrowSlots() {
        let background = RGBA8(grey: 7)
        var sheet = ContactSheet(cellWidth: 16, cellHeight: 16, cells: 3, columns: 3, spacing: 2,
                                 background: background, labelLines: 2, labelCharacters: 11)
        // 11 glyphs at scale 1: 43 px, wider than the 16 px frame.
        #expect(sheet.slotWidth == 43)
        #expect(sheet.slotHeight == 16 + 2 * 7)
        #expect(sheet.image.width == 3 * 43 + 4 * 2 && sheet.image.height == 30 + 2 * 2)
        sheet.place(.filled(width: 16, height: 16, with: RGBA8(grey: 100)), inCell: 1)
        sheet.label(["1.00 s", "r+1° p-1°"], inCell: 1)
        let slotLeft = 2 + 43 + 2
        // The frame is centred in its slot.
        #expect(sheet.image[slotLeft + 13, 2] == RGBA8(grey: 100))
        #expect(sheet.image[slotLeft + 12, 2] == background)
        // Label pixels lie below the frame, inside the slot, and nowhere else.
        var labelPixels = 0
        for y in 0..<sheet.image.height {
            for x in 0..<sheet.image.width where sheet.image[x, y] == ContactSheet.labelColour {
                labelPixels += 1
                #expect(y >= 2 + 16 && y < 2 + 30 && x >= slotLeft && x < slotLeft + 43)
            }
        }
        #expect(labelPixels > 20)
    }

    @Test func columnsAreKeptAsGivenAndCappedAtTheCellCount() {
        #expect(ContactSheet(cellSize: 10, cells: 12, columns: 2).rows == 6)
        #expect(ContactSheet(cellSize: 10, cells: 3, columns: 8).columns == 3)
    }
}
