package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.RootLoggerGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kernels compile} on a machine with the ROCm runtime and no AMD GPU (this one, and CI with Debian's ROCm 5.2):
 * it compiles every kernel source through the real hipRTC. In CI (CI set) a missing runtime fails instead of skipping.
 */
@ExtendWith(RootLoggerGuard.class)
class KernelsCommandTest {
    private static final Pattern SIZE_LINE = Pattern.compile("(?m)^  ([a-z]+\\.cu) +(\\d+) bytes +\\d+\\.\\d s$");

    private static void requireRocmWithoutAmdGpu() {
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5"))
                || Files.exists(Path.of("/opt/rocm/lib/libamdhip64.so"));
        if (System.getenv("CI") != null)
            assertThat(installed).as("CI installs libamdhip64-5").isTrue();
        assumeTrue(installed, "ROCm runtime not installed here (CI installs libamdhip64-5)");
        assumeTrue(
                !Files.exists(Path.of("/dev/kfd")),
                "an AMD GPU driver is present: the no-device reason does not apply");
    }

    @Test
    void kernelsCompileBuildsEverySourceForGfx1030AndGfx90a(@TempDir Path out) throws Exception {
        requireRocmWithoutAmdGpu();
        CliRun r = CliRun.run(
                "kernels", "compile", "--backend", "hip", "--arch", "gfx1030,gfx90a", "--out", out.toString());
        System.out.print(r.out());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out())
                .startsWith("hipRTC ")
                .contains("of ROCm 5.2.")
                .contains("gfx1030:\n")
                .contains("gfx90a:\n")
                .contains("6 of 6 kernel sources compiled for gfx1030")
                .contains("6 of 6 kernel sources compiled for gfx90a");
        Matcher m = SIZE_LINE.matcher(r.out());
        int lines = 0;
        while (m.find()) {
            lines++;
            assertThat(Long.parseLong(m.group(2))).as(m.group()).isGreaterThan(4096);
        }
        assertThat(lines).isEqualTo(12);
        for (String arch : List.of("gfx1030", "gfx90a")) {
            for (String source : List.of("elementwise", "layout", "linear", "reduction", "sequence", "spectral")) {
                byte[] co = Files.readAllBytes(out.resolve(arch).resolve(source + ".co"));
                assertThat(co).as(arch + "/" + source + ".co").startsWith(0x7f, 'E', 'L', 'F');
                assertThat(r.out()).containsPattern("(?m)^  " + source + "\\.cu +" + co.length + " bytes");
            }
        }
    }

    @Test
    void kernelsCompileRefusesAnArchitectureTheCompilerDoesNotKnow() {
        requireRocmWithoutAmdGpu();
        CliRun r = CliRun.run("kernels", "compile", "--backend", "rocm", "--arch", "gfx9999");
        assertThat(r.exit())
                .as("an architecture the compiler does not know is a usage error: %s", r)
                .isEqualTo(2);
        assertThat(r.err())
                .contains("cannot target gfx9999")
                .contains("gfx1030")
                .contains("gfx90a");
    }

    @Test
    void kernelsCompileNeedsABackendThatCompilesKernels() {
        CliRun r = CliRun.run("kernels", "compile", "--arch", "gfx1030");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err())
                .contains("kernels compile needs --backend")
                .contains("hip")
                .contains("got cpu");

        CliRun noArch = CliRun.run("kernels", "compile", "--backend", "hip");
        assertThat(noArch.exit()).isEqualTo(2);
        assertThat(noArch.err()).contains("--arch");
    }
}
