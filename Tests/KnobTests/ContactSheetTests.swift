@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct ContactSheetTests {
    @Test func indicesSpreadEvenlyWithEnds() {
        #expect(ContactSheet.sampleIndices(frameCount: 100, cells: 5) == [0, 25, 50, 74, 99])
        #expect(ContactSheet.sampleIndices(frameCount: 3, cells: 10) == [0, 1, 2])
        #expect(ContactSheet.sampleIndices(frameCount: 10, cells: 1) == [0])
    }

    @Test func cellsLandInAGrid() {
        var sheet = ContactSheet(cellSize: 10, cells: 5, spacing: 2, background: RGBA8(grey: 7))
        #expect(sheet.columns == 3 && sheet.rows == 2)
        #expect(sheet.image.width == 3 * 10 + 4 * 2 && sheet.image.height == 2 * 10 + 3 * 2)
        sheet.place(.filled(width: 10, height: 10, with: RGBA8(grey: 200)), inCell: 4)
        #expect(sheet.image[2 + 12, 2 + 12] == RGBA8(grey: 200))   // cell 4: column 1, row 1
        #expect(sheet.image[1, 1] == RGBA8(grey: 7))
        // Transparent frames show the background.
        sheet.place(RGBAImage(width: 10, height: 10), inCell: 0)
        #expect(sheet.image[5, 5] == RGBA8(grey: 7))
    }
}
