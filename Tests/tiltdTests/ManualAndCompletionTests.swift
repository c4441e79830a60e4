import Foundation
import Testing
import TiltdTestSupport

/// `make install` installs a man page and shell completions (issue 10:
/// only one doc was installed). Checked without building in release: the
/// install recipe (`make -n`) and the completions the binary generates.
@Suite struct ManualAndCompletionTests {
    @Test func makeInstallPutsTheManPageCompletionsAndDocsInPlace() throws {
        let make = URL(fileURLWithPath: "/usr/bin/make")
        try #require(FileManager.default.isExecutableFile(atPath: make.path), "make is not installed")
        let r = try TiltdProcess.execute(make, ["-n", "-C", TiltdProcess.repositoryRoot.path, "install",
                                                "DESTDIR=/tmp/tiltd-dry", "PREFIX=/usr"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        for installed in ["/tmp/tiltd-dry/usr/bin/tiltd", "/tmp/tiltd-dry/usr/share/man/man1/tiltd.1",
                          "/tmp/tiltd-dry/usr/share/bash-completion/completions/tiltd",
                          "/tmp/tiltd-dry/usr/share/zsh/site-functions/_tiltd",
                          "/tmp/tiltd-dry/usr/share/fish/vendor_completions.d/tiltd.fish",
                          "docs/knob.md", "docs/trace-format.md"] {
            #expect(r.stdout.contains(installed), "make install does not install \(installed)")
        }
        #expect(r.stdout.contains("swift package generate-manual"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsCoverEveryCommand(_ shell: String) throws {
        let r = try TiltdProcess.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.stderr)")
        // Fish lists long options without their dashes (-l max-frames).
        for word in ["run", "list", "record", "replay", "render", "serve", "max-frames", "overwrite", "realtime"] {
            #expect(r.stdout.contains(word), "\(shell) completion lacks \(word)")
        }
    }
}
