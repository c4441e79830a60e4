@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct MountMatrixTests {
    @Test func emptyTextIsIdentity() throws {
        #expect(try MountMatrix(parsing: "") == .identity)
        #expect(try MountMatrix(parsing: "\n") == .identity)
    }

    @Test func parsesWithAndWithoutSpacesAndTrailingNewline() throws {
        let spaced = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1\n")
        let tight = try MountMatrix(parsing: "0,-1,0;1,0,0;0,0,1")
        #expect(spaced == tight)
        #expect(spaced.rows.0 == SIMD3(0, -1, 0))
        #expect(spaced.rows.1 == SIMD3(1, 0, 0))
        #expect(spaced.rows.2 == SIMD3(0, 0, 1))
    }

    @Test func appliesRowsToTheVector() throws {
        // Asymmetric: M·v and Mᵀ·v differ, so a transposed application fails.
        let matrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        #expect(matrix.apply(SIMD3(1, 2, 3)) == SIMD3(-2, 1, 3))
    }

    @Test func iioSensorProxyVector() throws {
        let matrix = try MountMatrix(parsing: "1, 0, 0; 0, 0, 1; 0, 1, 0")
        #expect(matrix.apply(SIMD3(0, -256, 0)) == SIMD3(0, 0, -256))
    }

    @Test func rejectsAllZeroRow() {
        let error = #expect(throws: MountMatrixError.self) {
            try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 0")
        }
        #expect(error?.description.contains("\"0, 1, 0; 1, 0, 0; 0, 0, 0\"") == true)
        #expect(error?.description.contains("row 3 is all zeros") == true)
    }

    @Test(arguments: ["garbage", "1, 0, 0; 0, 1, 0", "1, 0; 0, 1, 0; 0, 0, 1",
                      "1, 0, x; 0, 1, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, 1; 1, 1, 1",
                      "1, 0, nan; 0, 1, 0; 0, 0, 1"])
    func rejectsGarbage(text: String) {
        #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: text) }
    }

    @Test func acceptsUnusualButValidMatrices() throws {
        // Bush Windows tablet in systemd's hwdb uses x twice.
        let bush = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 1, 0, 0")
        #expect(!bush.isSignedPermutation)
        let reflection = try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")
        #expect(reflection.isSignedPermutation)
        #expect(MountMatrix.identity.isSignedPermutation)
        #expect(!(try MountMatrix(parsing: "0.5, 0, 0; 0, 1, 0; 0, 0, 1")).isSignedPermutation)
    }

    @Test func textFormRoundTrips() throws {
        let matrix = try MountMatrix(parsing: "0,-1,0;1,0,0;0,0,0.5")
        #expect(matrix.iioText == "0, -1, 0; 1, 0, 0; 0, 0, 0.5")
        #expect(try MountMatrix(parsing: matrix.iioText) == matrix)
    }
}
