/// Frames laid out in one image, left to right and top to bottom, so a
/// person sees a whole trace's motion at a glance. Each cell is the frame
/// composited over an opaque background, with `spacing` pixels between cells
/// and around the edge.
public struct ContactSheet: Sendable {
    public let cellSize: Int
    public let columns: Int
    public let rows: Int
    public let spacing: Int
    public let background: RGBA8
    /// The sheet so far, opaque.
    public private(set) var image: RGBAImage

    /// - Parameters:
    ///   - cellSize: frame side in pixels.
    ///   - cells: number of frames to hold.
    ///   - columns: cells per row; default: about square.
    ///   - spacing: pixels between cells and at the edges.
    ///   - background: the colour behind the frames.
    public init(cellSize: Int, cells: Int, columns: Int? = nil, spacing: Int = 4,
                background: RGBA8 = .referenceBackground) {
        precondition(cellSize > 0 && cells > 0, "a contact sheet needs at least one cell")
        var c = columns ?? 1
        if columns == nil { while c * c < cells { c += 1 } }
        self.cellSize = cellSize
        self.columns = c
        self.rows = (cells + c - 1) / c
        self.spacing = spacing
        self.background = background
        image = .filled(width: c * cellSize + (c + 1) * spacing,
                        height: rows * cellSize + (rows + 1) * spacing, with: background)
    }

    /// `cells` frame indices spread evenly over `frameCount` frames, first
    /// and last included.
    public static func sampleIndices(frameCount: Int, cells: Int) -> [Int] {
        guard frameCount > 0, cells > 0 else { return [] }
        if cells >= frameCount { return Array(0..<frameCount) }
        if cells == 1 { return [0] }
        return (0..<cells).map { i in (i * (frameCount - 1) + (cells - 1) / 2) / (cells - 1) }
    }

    /// Draws `frame` (premultiplied, `cellSize²`) into cell `cell`.
    public mutating func place(_ frame: RGBAImage, inCell cell: Int) {
        precondition(frame.width == cellSize && frame.height == cellSize, "contact sheet cells are \(cellSize) px")
        precondition(cell >= 0 && cell < columns * rows, "cell \(cell) outside the \(columns)×\(rows) sheet")
        let ox = spacing + (cell % columns) * (cellSize + spacing)
        let oy = spacing + (cell / columns) * (cellSize + spacing)
        for y in 0..<cellSize {
            for x in 0..<cellSize {
                image[ox + x, oy + y] = frame[x, y].over(background)
            }
        }
    }
}
