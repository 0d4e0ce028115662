package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/test-setup, the set-up step of the README's test command, against fake dpkg-query, id,
 * sudo, apt-get and npm: PATH holds only the fakes and the few real tools the script uses, so
 * nothing is ever installed and the machine's own packages do not matter.
 */
class TestSetupScriptTest {
    @TempDir
    Path work;

    private Path bin, missing, aptLog;

    /** A fake on PATH: a /bin/sh script (the real tools the script needs are wrappers made the same way). */
    private void fake(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @BeforeEach
    void fakes() throws IOException {
        bin = Files.createDirectories(work.resolve("bin"));
        missing = work.resolve("missing"); // the packages the fake dpkg does not have, one per line
        aptLog = work.resolve("apt.log"); // every fake apt-get call
        Files.writeString(missing, "");
        for (String tool : List.of("bash", "grep", "dirname", "readlink", "env", "cat", "mv", "true")) {
            Path real = Path.of("/usr/bin", tool);
            if (!Files.exists(real)) real = Path.of("/bin", tool);
            fake(tool, "exec " + real + " \"$@\"");
        }
        fake(
                "dpkg-query",
                "for pkg; do :; done; grep -qx \"$pkg\" '" + missing + "' && exit 1; printf 'install ok installed'");
        // "installs" by dropping the named packages from the missing list, unless FAKE_APT_BROKEN is set
        fake(
                "apt-get",
                "echo \"apt-get $*\" >> '" + aptLog + "'\n"
                        + "[ \"$1\" = install ] && [ -z \"$FAKE_APT_BROKEN\" ] || exit 0\n"
                        + "for a in \"$@\"; do grep -vx \"$a\" '" + missing + "' > '" + missing + ".new'; mv '"
                        + missing + ".new' '" + missing + "'; done");
        fake("id", "echo \"$FAKE_UID\"");
        fake(
                "sudo",
                "[ -n \"$FAKE_SUDO_OK\" ] || exit 1\n[ \"$1\" = -n ] && shift\necho \"sudo $*\" >> '" + aptLog
                        + "'\nexec \"$@\"");
        fake("npm", "exit 0");
    }

    private Dist.Result setup(Map<String, String> env, String... args) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(Map.of("PATH", bin.toString(), "FAKE_UID", "1000"));
        all.putAll(env);
        List<String> cmd = new java.util.ArrayList<>(
                List.of(Dist.repoRoot().resolve("scripts/test-setup").toString()));
        cmd.addAll(List.of(args));
        return Dist.run(cmd, work, all);
    }

    private void missing(String... packages) throws IOException {
        Files.writeString(missing, String.join("\n", packages) + "\n");
    }

    private String aptCalls() throws IOException {
        return Files.exists(aptLog) ? Files.readString(aptLog) : "";
    }

    @Test
    void aReadyMachineNeverTouchesApt() throws Exception {
        Dist.Result r = setup(Map.of());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(aptCalls()).isEmpty();
    }

    @Test
    void withoutRootOrSudoItPrintsTheExactCommandAndFails() throws Exception {
        missing("pocketsphinx-testdata");
        Dist.Result r = setup(Map.of());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .contains("missing Debian packages: pocketsphinx-testdata")
                .contains(
                        "sudo apt-get update && sudo apt-get install -y -q --no-install-recommends pocketsphinx-testdata\n");
        assertThat(aptCalls()).isEmpty();
    }

    @Test
    void asRootItInstallsOnlyWhatIsMissing() throws Exception {
        missing("sox", "libopenblas0");
        Dist.Result r = setup(Map.of("FAKE_UID", "0"));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(aptCalls())
                .isEqualTo("apt-get update -q\napt-get install -y -q --no-install-recommends sox libopenblas0\n");
    }

    @Test
    void withPasswordlessSudoItInstallsThroughSudo() throws Exception {
        missing("espeak-ng");
        Dist.Result r = setup(Map.of("FAKE_SUDO_OK", "1"));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(aptCalls())
                .contains(
                        "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends espeak-ng")
                .contains("apt-get install -y -q --no-install-recommends espeak-ng");
    }

    @Test
    void anInstallThatLeavesAPackageMissingFails() throws Exception {
        missing("sox");
        Dist.Result r = setup(Map.of("FAKE_UID", "0", "FAKE_APT_BROKEN", "1"));
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("still not installed: sox");
    }

    @Test
    void dryRunPrintsTheCommandsAndRunsNone() throws Exception {
        missing("glslang-tools");
        Dist.Result r = setup(Map.of("FAKE_UID", "0"), "--dry-run");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out())
                .isEqualTo(
                        "apt-get update -q\nenv DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends glslang-tools\n");
        assertThat(aptCalls()).isEmpty();
    }

    @Test
    void missingNpmIsReportedWithTheFix() throws Exception {
        Files.delete(bin.resolve("npm"));
        Dist.Result r = setup(Map.of());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("npm is required").contains("apt-get install -y npm");
    }

    @Test
    void theCiEntryPointAndTheReadmeCommandShareOneList() throws Exception {
        String ci = Files.readString(Dist.repoRoot().resolve(".ci/run"));
        String test = Files.readString(Dist.repoRoot().resolve("scripts/test"));
        assertThat(ci).contains("exec scripts/test").doesNotContain("apt-get install");
        assertThat(test).contains("scripts/test-setup");
        assertThat(Files.readAllLines(Dist.repoRoot().resolve("scripts/test-packages")))
                .contains("pocketsphinx-testdata", "libvulkan1");
    }
}
