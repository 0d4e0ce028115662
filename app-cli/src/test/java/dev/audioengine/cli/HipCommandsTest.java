package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import dev.audioengine.cli.testkit.RootLoggerGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HIP backend seen from the command line on a machine with the ROCm runtime and no AMD GPU
 * (this one, and CI with Debian's ROCm 5.2): `backends --json` reports it unavailable with the
 * runtime's own error (`kernels compile`, which compiles every kernel source through the real hipRTC, is tested
 * with the tools: app-tools' KernelsCommandTest).
 * In CI (CI set) a missing runtime fails instead of skipping.
 */
@ExtendWith(RootLoggerGuard.class)
class HipCommandsTest {
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
    @SuppressWarnings("unchecked")
    void backendsJsonShowsHipAsRocmWithHipErrorNoDeviceAndTheRuntimeVersion() {
        requireRocmWithoutAmdGpu();
        CliRun r = CliRun.run("backends", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> backends =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        Map<String, Object> hip = backends.stream()
                .filter(b -> "hip".equals(b.get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(hip)
                .containsEntry("type", "HIP")
                .containsEntry("registryName", "ROCm")
                .containsEntry("available", false);
        assertThat((String) hip.get("reason"))
                .matches("hipErrorNoDevice from hipGetDeviceCount \\(ROCm runtime 5\\.2\\.\\d+.*"
                        + "found at \\S*libamdhip64\\.so\\S*\\)");
        assertThat((List<?>) hip.get("devices")).isEmpty();
    }
}
