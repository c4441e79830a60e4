/// Frames laid out in one image, left to right and top to bottom, so a
/// person sees a whole trace's motion at a glance. Each cell is the frame
/// composited over an opaque background, optionally with lines of text
/// under it (`label`), with `spacing` pixels between cells and around the edge.
public struct ContactSheet: Sendable {
    public let cellWidth: Int
    public let cellHeight: Int
    public let columns: Int
    public let rows: Int
    public let spacing: Int
    public let background: RGBA8
    /// Lines of label text under each frame (0: no labels).
    public let labelLines: Int
    /// Size of one font pixel of the labels in image pixels.
    public let labelScale: Int
    /// Width of one cell's slot: the frame, or its labels when they are wider.
    public let slotWidth: Int
    /// Height of one cell's slot: the frame and its label lines.
    public let slotHeight: Int
    /// The sheet so far, opaque.
    public private(set) var image: RGBAImage

    /// The labels' colour: a light grey that reads on the dark backgrounds.
    public static let labelColour = RGBA8(grey: 220)

    /// Square cells of `cellSize` pixels.
    public init(cellSize: Int, cells: Int, columns: Int? = nil, spacing: Int = 4,
                background: RGBA8 = .referenceBackground) {
        self.init(cellWidth: cellSize, cellHeight: cellSize, cells: cells, columns: columns,
                  spacing: spacing, background: background)
    }

    /// - Parameters:
    ///   - cellWidth: frame width in pixels.
    ///   - cellHeight: frame height in pixels.
    ///   - cells: number of frames to hold.
    ///   - columns: cells per row; default: about a square sheet.
    ///   - spacing: pixels between cells and at the edges.
    ///   - background: the colour behind the frames.
    ///   - labelLines: lines of text under each frame (see `label`).
    ///   - labelCharacters: the longest label line expected, in characters;
    ///     a slot is widened to fit it.
    public init(cellWidth: Int, cellHeight: Int, cells: Int, columns: Int? = nil, spacing: Int = 4,
                background: RGBA8 = .referenceBackground, labelLines: Int = 0, labelCharacters: Int = 0) {
        precondition(cellWidth > 0 && cellHeight > 0 && cells > 0, "a contact sheet needs at least one cell")
        precondition(columns.map { $0 > 0 } ?? true, "a contact sheet needs at least one column")
        let scale = max(1, cellHeight / 64)
        let slotWidth = max(cellWidth, BitmapFont.width(of: String(repeating: "0", count: labelCharacters), scale: scale))
        // Each line: glyph height plus two font pixels of leading.
        let slotHeight = cellHeight + labelLines * (BitmapFont.glyphHeight + 2) * scale
        var c = min(columns ?? 1, cells)
        if columns == nil {
            // Columns so that the sheet is about as wide as it is tall.
            while c * slotWidth * c < cells * slotHeight && c < cells { c += 1 }
        }
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.columns = c
        self.rows = (cells + c - 1) / c
        self.spacing = spacing
        self.background = background
        self.labelLines = labelLines
        self.labelScale = scale
        self.slotWidth = slotWidth
        self.slotHeight = slotHeight
        image = .filled(width: c * slotWidth + (c + 1) * spacing,
                        height: rows * slotHeight + (rows + 1) * spacing, with: background)
    }

    /// A frame's label: its time since the first frame, then roll and pitch
    /// in whole degrees, e.g. `["12.35 s", "r-12° p+45°"]`.
    public static func labelText(secondsSinceStart: Double, rollRadians: Double, pitchRadians: Double) -> [String] {
        func degrees(_ radians: Double) -> String {
            let value = (radians * 180 / .pi).rounded()
            guard value.isFinite, abs(value) < 1e6 else { return "?" }
            let whole = Int(value)
            return (whole < 0 ? "-" : "+") + String(abs(whole)) + "°"
        }
        let hundredths = (secondsSinceStart * 100).rounded()
        let time: String
        if hundredths.isFinite, abs(hundredths) < 1e15 {
            let h = Int(hundredths)
            let fraction = String(abs(h) % 100)
            time = (h < 0 ? "-" : "") + String(abs(h) / 100) + "." + (fraction.count < 2 ? "0" : "") + fraction + " s"
        } else {
            time = "?"
        }
        return [time, "r" + degrees(rollRadians) + " p" + degrees(pitchRadians)]
    }

    /// The top-left corner of cell `cell`'s frame.
    private func origin(ofCell cell: Int) -> (x: Int, y: Int) {
        precondition(cell >= 0 && cell < columns * rows, "cell \(cell) outside the \(columns)×\(rows) sheet")
        return (spacing + (cell % columns) * (slotWidth + spacing) + (slotWidth - cellWidth) / 2,
                spacing + (cell / columns) * (slotHeight + spacing))
    }

    /// Writes up to `labelLines` lines of text centred under cell `cell`'s frame.
    public mutating func label(_ lines: [String], inCell cell: Int) {
        let (ox, oy) = origin(ofCell: cell)
        let centre = ox + cellWidth / 2
        for (number, line) in lines.prefix(labelLines).enumerated() {
            let top = oy + cellHeight + labelScale + number * (BitmapFont.glyphHeight + 2) * labelScale
            BitmapFont.draw(line, at: centre - BitmapFont.width(of: line, scale: labelScale) / 2, top,
                            scale: labelScale, colour: Self.labelColour, into: &image)
        }
    }

    /// `cells` frame indices spread evenly over `frameCount` frames, first
    /// and last included.
    public static func sampleIndices(frameCount: Int, cells: Int) -> [Int] {
        guard frameCount > 0, cells > 0 else { return [] }
        if cells >= frameCount { return Array(0..<frameCount) }
        if cells == 1 { return [0] }
        return (0..<cells).map { i in (i * (frameCount - 1) + (cells - 1) / 2) / (cells - 1) }
    }

    /// Draws `frame` (premultiplied, one cell's size) into cell `cell`.
    public mutating func place(_ frame: RGBAImage, inCell cell: Int) {
        precondition(frame.width == cellWidth && frame.height == cellHeight,
                     "contact sheet cells are \(cellWidth)×\(cellHeight) px")
        let (ox, oy) = origin(ofCell: cell)
        for y in 0..<cellHeight {
            for x in 0..<cellWidth {
                image[ox + x, oy + y] = frame[x, y].over(background)
            }
        }
    }
}
