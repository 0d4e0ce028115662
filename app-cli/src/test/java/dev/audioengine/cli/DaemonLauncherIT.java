package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ./audioengine launcher with --daemon and AUDIOENGINE_DAEMON=1: the client JVM, the resident process it
 * starts and the launcher's routing, against --no-daemon runs of the same commands in the same folder.
 */
class DaemonLauncherIT {
    @TempDir
    static Path tmp;

    private static Path folder() {
        return tmp.resolve("daemon");
    }

    private static Dist.Result launch(Map<String, String> extraEnv, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(Dist.repoRoot().resolve("audioengine").toString()));
        cmd.addAll(List.of(args));
        Map<String, String> env = new HashMap<>(Map.of(
                "AUDIOENGINE_NO_BUILD",
                "1",
                "JAVA_HOME",
                Dist.javaHome().toString(),
                "AUDIOENGINE_DAEMON_DIR",
                folder().toString()));
        env.putAll(extraEnv);
        Path work = Files.createDirectories(tmp.resolve("work"));
        if (!Files.exists(work.resolve("clip.wav")))
            Files.copy(Dist.repoRoot().resolve("docs/examples/speech.wav"), work.resolve("clip.wav"));
        return Dist.run(cmd, work, env);
    }

    private static String timeless(String err) {
        return err.replaceAll("\\d+ ms wall", "N ms wall").replaceAll("\\d+x real time", "Nx real time");
    }

    @AfterAll
    static void stop() throws Exception {
        launch(Map.of(), "daemon", "stop");
    }

    @Test
    void jobsThroughTheResidentProcessMatchRunsOfTheirOwn() throws Exception {
        List<String[]> commands = List.of(
                new String[] {"--task", "vad", "--audio", "clip.wav", "--threads", "1"},
                new String[] {"--task", "vad", "--audio", "missing.wav", "--threads", "1"},
                new String[] {"--task", "vad", "--audio", "clip.wav", "--threads", "x"});
        int[] expected = {0, 1, 2};
        for (int i = 0; i < commands.size(); i++) {
            String[] args = commands.get(i);
            Dist.Result own = launch(Map.of(), concat("--no-daemon", args));
            Dist.Result resident = launch(Map.of(), concat("--daemon", args));
            assertThat(own.exit()).as(own.toString()).isEqualTo(expected[i]);
            assertThat(resident.exit()).as(resident.toString()).isEqualTo(own.exit());
            assertThat(resident.out()).isEqualTo(own.out());
            assertThat(timeless(resident.err())).isEqualTo(timeless(own.err()));
        }
        // the environment switch goes to the same process; a command without --task does not
        Dist.Result viaEnv = launch(Map.of("AUDIOENGINE_DAEMON", "1"), commands.getFirst());
        assertThat(viaEnv.exit()).as(viaEnv.toString()).isZero();
        Dist.Result version = launch(Map.of("AUDIOENGINE_DAEMON", "1"), "--version");
        assertThat(version.out()).startsWith("audioengine ");

        Dist.Result status = launch(Map.of(), "daemon", "status");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(status.out()).startsWith("pid ").contains("4 jobs done").contains("1 models kept (vad)");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder())))
                .isEqualTo("rwx------");

        Dist.Result stop = launch(Map.of(), "daemon", "stop");
        assertThat(stop.out()).startsWith("stopping pid ");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (var s = Files.newDirectoryStream(folder(), "*.sock")) {
                if (!s.iterator().hasNext()) break;
            }
            Thread.sleep(100);
        }
        assertThat(launch(Map.of(), "daemon", "status").out()).startsWith("no resident process is running");
    }

    @Test
    void aBadIdleTimeIsAUsageError() throws Exception {
        Dist.Result r = launch(Map.of("AUDIOENGINE_DAEMON_IDLE", "soon"), "--daemon", "--task", "vad");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("AUDIOENGINE_DAEMON_IDLE=soon is not a time");
    }

    private static String[] concat(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
