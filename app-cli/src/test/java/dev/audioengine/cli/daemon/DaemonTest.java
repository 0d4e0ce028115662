package dev.audioengine.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.cli.AudioEngineCommand;
import dev.audioengine.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident process in this JVM on a socket in a temporary folder, its client talking to it: jobs through it print
 * the same bytes and exit with the same status as runs of their own (Silero VAD on the example WAV, and the error
 * paths), relative paths name files in the client's folder, stdin is read when the job reads it, and the process
 * lifecycle (idle exit, one process per socket, a stale socket replaced, a process that dies mid-job, one that cannot
 * start) behaves as documented.
 */
class DaemonTest {
    private static final Path EXAMPLES =
            Path.of("../docs/examples").toAbsolutePath().normalize();
    private static final Path HERE = Path.of("").toAbsolutePath();

    @TempDir
    Path tmp;

    Path folder, socket;
    DaemonServer daemon;

    @BeforeEach
    void start() throws IOException {
        folder = tmp.resolve("daemon");
        socket = folder.resolve("test.sock");
        daemon = DaemonServer.start(socket, Duration.ofMinutes(5), Duration.ofSeconds(5));
        assertThat(daemon).isNotNull();
    }

    @AfterEach
    void stop() throws InterruptedException {
        daemon.close();
        assertThat(Path.of("").toAbsolutePath()).isEqualTo(HERE);
    }

    record Result(int exit, String out, String err) {
        /** Without the wall times and speeds, which differ from run to run. */
        Result timeless() {
            return new Result(
                    exit,
                    out.replaceAll("\"realtime_factor\":[0-9.E-]+", "\"realtime_factor\":N"),
                    err.replaceAll("\\d+ ms wall", "N ms wall").replaceAll("\\d+x real time", "Nx real time"));
        }
    }

    /** A run of its own, as Main runs it (minus the exit), in this JVM's folder. */
    static Result direct(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out, savedErr = System.err;
        InputStream savedIn = System.in;
        InputStream in = new ByteArrayInputStream(stdin);
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setIn(in);
            exit = Main.execute(new AudioEngineCommand().streams(in, out), args);
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setIn(savedIn);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The same through the resident process, as a client in {@code dir}. */
    Result viaDaemon(Path dir, byte[] stdin, String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        SocketChannel c = DaemonClient.connect(socket);
        assertThat(c).as("the resident process answers").isNotNull();
        int exit = DaemonClient.run(
                c,
                socket,
                new DaemonClient.Job(dir, false, null, List.of(args)),
                new ByteArrayInputStream(stdin),
                out,
                err);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void jobsPrintTheSameAndExitTheSameAsRunsOfTheirOwn() throws IOException {
        String wav = HERE.relativize(EXAMPLES.resolve("speech.wav")).toString(); // relative: ../docs/examples/...
        List<String[]> commands = List.of(
                new String[] {"--task", "vad", "--audio", wav, "--threads", "1"},
                new String[] {"--task", "vad", "--audio", wav, "--threads", "1", "--json"},
                new String[] {"--task", "vad", "--audio", "missing.wav", "--threads", "1"}, // exit 1
                new String[] {"--task", "vad", "--audio", wav, "--threads", "x"}, // exit 2, bad option value
                new String[] {"--task", "nope", "--audio", wav}, // exit 2, unknown task
                new String[] {"--task", "vad", "--audio", wav, "--no-such-option"}, // exit 2
                new String[] {"--task", "vad"}); // exit 2, no --audio
        for (String[] args : commands) {
            Result direct = direct(new byte[0], args).timeless();
            Result daemon = viaDaemon(HERE, new byte[0], args).timeless();
            assertThat(daemon).as(String.join(" ", args)).isEqualTo(direct);
        }
        Result ok = direct(new byte[0], commands.getFirst());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains(" - ");
        assertThat(direct(new byte[0], commands.get(2)).exit()).isEqualTo(1);
        assertThat(direct(new byte[0], commands.get(3)).exit()).isEqualTo(2);
        // the model stayed loaded for the next job
        assertThat(daemon.models.describe()).isEqualTo("1 models kept (vad)");
    }

    @Test
    void relativePathsNameFilesInTheClientsFolder() throws IOException {
        Path work = Files.createDirectories(tmp.resolve("work dir"));
        Files.copy(EXAMPLES.resolve("speech.wav"), work.resolve("clip.wav"));
        Result r = viaDaemon(
                work,
                new byte[0],
                "--task",
                "vad",
                "--audio",
                "clip.wav",
                "--threads",
                "1",
                "--segments-out",
                "clip.segments.json",
                "--probabilities-out",
                "probs.txt",
                "-q");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(work.resolve("clip.segments.json")).isNotEmptyFile();
        assertThat(work.resolve("probs.txt")).isNotEmptyFile();
        assertThat(HERE.resolve("clip.segments.json")).doesNotExist();

        // the same output files as a run of its own with the absolute paths
        Path direct = Files.createDirectories(tmp.resolve("direct"));
        Result d = direct(
                new byte[0],
                "--task",
                "vad",
                "--audio",
                work.resolve("clip.wav").toString(),
                "--threads",
                "1",
                "--segments-out",
                direct.resolve("clip.segments.json").toString(),
                "--probabilities-out",
                direct.resolve("probs.txt").toString(),
                "-q");
        assertThat(d.exit()).as(d.err()).isZero();
        assertThat(work.resolve("probs.txt")).hasSameBinaryContentAs(direct.resolve("probs.txt"));
        // the document names the input as typed
        assertThat(Files.readString(work.resolve("clip.segments.json")))
                .startsWith("{\"audio\":\"clip.wav\",")
                .isEqualTo(Files.readString(direct.resolve("clip.segments.json"))
                        .replace(work.resolve("clip.wav").toString(), "clip.wav"));

        // a missing file is named as typed, relative to the client's folder
        Result missing = viaDaemon(work, new byte[0], "--task", "vad", "--audio", "speech.wav", "--threads", "1");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).startsWith("error: speech.wav: ");
    }

    @Test
    void standardInputReachesAJobThatReadsIt() throws IOException {
        byte[] wav = Files.readAllBytes(EXAMPLES.resolve("speech.wav"));
        Result fromFile = direct(
                new byte[0],
                "--task",
                "vad",
                "--audio",
                EXAMPLES.resolve("speech.wav").toString(),
                "--threads",
                "1",
                "-q");
        Result piped = viaDaemon(HERE, wav, "--task", "vad", "--audio", "-", "--threads", "1", "-q");
        assertThat(piped.exit()).as(piped.err()).isZero();
        assertThat(piped.out()).isEqualTo(fromFile.out()).isNotEmpty();
        Result directPiped = direct(wav, "--task", "vad", "--audio", "-", "--threads", "1", "-q");
        assertThat(piped).isEqualTo(directPiped);
    }

    @Test
    @org.junit.jupiter.api.Timeout(120)
    void aClientThatLeavesDuringTheJobLeavesTheProcessServing() throws IOException {
        SocketChannel c = DaemonClient.connect(socket);
        Frames frames = new Frames(c);
        frames.write(
                Frames.RUN,
                Frames.strings(new DaemonClient.Job(
                                HERE, false, null, List.of("--task", "vad", "--audio", "-", "--threads", "1"))
                        .encoded()));
        while (frames.read().type() != Frames.STDIN_WANTED) {
            // the job waits for its input: leave now, as a client stopped by Ctrl-C does
        }
        c.close();
        // the abandoned job ends at its next read (standard input at its end), and the next one runs
        String wav = EXAMPLES.resolve("speech.wav").toString();
        Result next = viaDaemon(HERE, new byte[0], "--task", "vad", "--audio", wav, "--threads", "1", "-q");
        assertThat(next.exit()).as(next.err()).isZero();
        assertThat(next.out())
                .isEqualTo(direct(new byte[0], "--task", "vad", "--audio", wav, "--threads", "1", "-q")
                        .out());
    }

    @Test
    void aSecondProcessForTheSameSocketLeavesItToTheFirst() throws IOException {
        assertThat(DaemonServer.start(socket, Duration.ofMinutes(1), Duration.ofSeconds(2)))
                .isNull();
        assertThat(viaDaemon(HERE, new byte[0], "--task", "vad").exit()).isEqualTo(2); // the first one still serves
    }

    @Test
    void exitsWhenIdleAndGivesTheSocketUp() throws Exception {
        daemon.close();
        daemon = DaemonServer.start(socket, Duration.ofMillis(300), Duration.ofSeconds(5));
        assertThat(viaDaemon(HERE, new byte[0], "--task", "vad").exit()).isEqualTo(2);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!daemon.finished() && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(daemon.finished()).as("stopped after 300 ms idle").isTrue();
        assertThat(socket).doesNotExist();
    }

    @Test
    void aStaleSocketIsReplaced() throws Exception {
        daemon.close();
        assertThat(socket).doesNotExist();
        // a socket file nothing listens on: what a killed process leaves
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertThat(socket).exists();
        assertThat(DaemonClient.connect(socket)).isNull();
        daemon = DaemonServer.start(socket, Duration.ofMinutes(1), Duration.ofSeconds(5));
        assertThat(daemon).isNotNull();
        assertThat(viaDaemon(HERE, new byte[0], "--task", "vad").exit()).isEqualTo(2);
    }

    @Test
    void statusAndStop() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertThat(DaemonClient.status(folder, p, p)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("pid " + ProcessHandle.current().pid() + ", engine ")
                .contains("0 jobs done", socket.toString());
        out.reset();
        assertThat(DaemonClient.stop(folder, p, p)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("stopping pid ");
        daemon.awaitStop();
        out.reset();
        DaemonClient.status(folder, p, p);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("no resident process is running");
    }

    @Test
    void aProcessThatDiesDuringTheJobIsReportedWithItsOwnStatus() throws Exception {
        Path fake = folder.resolve("dies.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(fake));
            Thread t = Thread.ofVirtual().start(() -> {
                try (SocketChannel c = server.accept()) {
                    Frames f = new Frames(c);
                    f.write(Frames.HELLO, "4242");
                    f.read(); // the job
                    f.write(Frames.STDOUT, "half a line");
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int exit = DaemonClient.run(
                    DaemonClient.connect(fake),
                    fake,
                    new DaemonClient.Job(HERE, false, null, List.of("--task", "vad")),
                    InputStream.nullInputStream(),
                    out,
                    err);
            t.join();
            assertThat(exit).isEqualTo(DaemonFiles.EXIT_DIED).isEqualTo(4);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("half a line");
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .startsWith("audioengine: the resident process (pid 4242, " + fake + ") ended during the job")
                    .contains("outputs may be incomplete");
        }
    }

    @Test
    void aProcessThatCannotStartIsReportedAndTheJobDoesNotRun() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = DaemonClient.run(
                tmp.resolve("other"),
                List.of("/bin/false"),
                Map.of(),
                Duration.ofMinutes(1),
                new DaemonClient.Job(HERE, false, null, List.of("--task", "vad")),
                InputStream.nullInputStream(),
                OutputStream.nullOutputStream(),
                err);
        assertThat(exit).isEqualTo(DaemonFiles.EXIT_NOT_STARTED).isEqualTo(3);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("audioengine: could not start the resident process")
                .contains("exited with status 1 before answering", "The job did not run");
    }

    @Test
    void aFolderOthersCanEnterIsRefused() throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> DaemonFiles.secure(open)).hasMessageContaining("chmod 700 " + open);
        Path fresh = tmp.resolve("fresh").resolve("daemon");
        DaemonFiles.secure(fresh);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)))
                .isEqualTo("rwx------");
    }

    @Test
    void keysDifferByEnvironmentThatMattersOnly() {
        List<String> cmd = List.of("/usr/bin/java", "-m", "x/y");
        String k = DaemonFiles.key(cmd, Map.of("HOME", "/h", "PWD", "/a"));
        assertThat(DaemonFiles.key(cmd, Map.of("HOME", "/h", "PWD", "/b", "AUDIOENGINE_DAEMON", "1")))
                .isEqualTo(k);
        assertThat(DaemonFiles.key(cmd, Map.of("HOME", "/other"))).isNotEqualTo(k);
        assertThat(DaemonFiles.key(cmd, Map.of("HOME", "/h", "AUDIOENGINE_CACHE", "/c")))
                .isNotEqualTo(k);
        assertThat(DaemonFiles.key(List.of("/usr/bin/java", "-Xmx1g", "-m", "x/y"), Map.of("HOME", "/h")))
                .isNotEqualTo(k);
    }

    @Test
    void idleTimes() {
        assertThat(DaemonClient.idle(null)).isEqualTo(Duration.ofHours(3));
        assertThat(DaemonClient.idle("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DaemonClient.idle("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(DaemonClient.idle("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThatThrownBy(() -> DaemonClient.idle("0")).hasMessageContaining("AUDIOENGINE_DAEMON_IDLE=0");
        assertThatThrownBy(() -> DaemonClient.idle("soon")).hasMessageContaining("is not a time");
    }
}
