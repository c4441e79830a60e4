/// Frames laid out in one image, left to right and top to bottom, so a
/// person sees a whole trace's motion at a glance. Each cell is the frame
/// composited over an opaque background, with `spacing` pixels between cells
/// and around the edge.
public struct ContactSheet: Sendable {
    public let cellWidth: Int
    public let cellHeight: Int
    public let columns: Int
    public let rows: Int
    public let spacing: Int
    public let background: RGBA8
    /// The sheet so far, opaque.
    public private(set) var image: RGBAImage

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
    public init(cellWidth: Int, cellHeight: Int, cells: Int, columns: Int? = nil, spacing: Int = 4,
                background: RGBA8 = .referenceBackground) {
        precondition(cellWidth > 0 && cellHeight > 0 && cells > 0, "a contact sheet needs at least one cell")
        var c = columns ?? 1
        if columns == nil {
            // Columns so that the sheet is about as wide as it is tall.
            while c * cellWidth * c < cells * cellHeight && c < cells { c += 1 }
        }
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.columns = c
        self.rows = (cells + c - 1) / c
        self.spacing = spacing
        self.background = background
        image = .filled(width: c * cellWidth + (c + 1) * spacing,
                        height: rows * cellHeight + (rows + 1) * spacing, with: background)
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
        precondition(cell >= 0 && cell < columns * rows, "cell \(cell) outside the \(columns)×\(rows) sheet")
        let ox = spacing + (cell % columns) * (cellWidth + spacing)
        let oy = spacing + (cell / columns) * (cellHeight + spacing)
        for y in 0..<cellHeight {
            for x in 0..<cellWidth {
                image[ox + x, oy + y] = frame[x, y].over(background)
            }
        }
    }
}
