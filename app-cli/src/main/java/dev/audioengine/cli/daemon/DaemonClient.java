package dev.audioengine.cli.daemon;

import java.io.EOFException;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The client of the resident process: what {@code audioengine --daemon ...} (or {@code AUDIOENGINE_DAEMON=1}) runs
 * instead of the engine. It hands the job (arguments, working folder, whether stderr is a terminal, $COLUMNS) to the
 * resident process for this install and environment (see {@link DaemonFiles}), starting one when there is none,
 * forwards standard input when the job reads it, writes the job's stdout and stderr as they come and exits with the
 * job's status. It loads nothing but java.base: its start is what every call pays.
 *
 * <p>Launcher interface: {@code DaemonClient run|status|stop TERMINAL N COMMAND(N words) -- ARGS}, where COMMAND
 * starts a resident process (the client adds the socket path and the idle time), TERMINAL is true when the launcher's
 * stderr is a terminal.
 */
public final class DaemonClient {
    private DaemonClient() {}

    private static final String NAME = "audioengine";

    /** How long a resident process may take to answer after its start: a JVM start, and a slow shared machine. */
    private static final Duration START_WAIT = Duration.ofSeconds(60);

    public static void main(String[] argv) {
        PrintStream err = System.err;
        try {
            String mode = argv[0];
            boolean terminal = Boolean.parseBoolean(argv[1]);
            int n = Integer.parseInt(argv[2]);
            List<String> command = List.of(argv).subList(3, 3 + n);
            if (!argv[3 + n].equals("--")) throw new IllegalArgumentException("no -- after the command");
            List<String> args = List.of(argv).subList(4 + n, argv.length);
            Map<String, String> env = System.getenv();
            Path folder = DaemonFiles.folder(env);
            int status = switch (mode) {
                case "run" -> {
                    Duration idle = idle(env.get("AUDIOENGINE_DAEMON_IDLE"));
                    yield run(
                            folder,
                            command,
                            env,
                            idle,
                            new Job(Path.of("").toAbsolutePath(), terminal, env.get("COLUMNS"), args),
                            System.in,
                            new FileOutputStream(FileDescriptor.out),
                            new FileOutputStream(FileDescriptor.err));
                }
                case "status" -> status(folder, System.out, err);
                case "stop" -> stop(folder, System.out, err);
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            };
            System.exit(status);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            err.println(NAME + ": " + e.getMessage());
            System.exit(2);
        }
    }

    /** One job: arguments, the folder relative paths name files in, the terminal flag and width for progress lines. */
    public record Job(Path directory, boolean terminal, String columns, List<String> args) {
        List<String> encoded() {
            List<String> l = new ArrayList<>();
            l.add(directory.toString());
            l.add(Boolean.toString(terminal));
            l.add(columns == null ? "" : columns);
            l.addAll(args);
            return l;
        }
    }

    /**
     * AUDIOENGINE_DAEMON_IDLE: how long a resident process waits for a job before it exits; seconds, or a number with
     * s, m or h. Default 3 h, as Gradle's daemon.
     */
    static Duration idle(String value) {
        if (value == null || value.isBlank()) return Duration.ofHours(3);
        String v = value.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 's' || last == 'm' || last == 'h') {
            unit = last == 's' ? 1 : last == 'm' ? 60 : 3600;
            v = v.substring(0, v.length() - 1);
        }
        try {
            double seconds = Double.parseDouble(v) * unit;
            if (!(seconds > 0) || seconds > 365 * 86400.0) throw new NumberFormatException();
            return Duration.ofMillis(Math.round(seconds * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("AUDIOENGINE_DAEMON_IDLE=" + value
                    + " is not a time; give seconds or a number with s, m or h (e.g. 30m), more than 0");
        }
    }

    /**
     * Runs {@code job} in the resident process of {@code command} under {@code env} in {@code folder}, starting it when
     * none answers; the job's status, or {@link DaemonFiles#EXIT_NOT_STARTED} / {@link DaemonFiles#EXIT_DIED}.
     */
    public static int run(
            Path folder,
            List<String> command,
            Map<String, String> env,
            Duration idle,
            Job job,
            InputStream in,
            OutputStream out,
            OutputStream err) {
        SocketChannel channel;
        Path socket;
        try {
            DaemonFiles.secure(folder);
            socket = folder.resolve(DaemonFiles.key(command, env) + ".sock");
            channel = connect(socket);
            if (channel == null) channel = start(socket, command, idle);
        } catch (IOException e) {
            message(
                    err,
                    "could not start the resident process (--daemon, AUDIOENGINE_DAEMON=1): " + e.getMessage()
                            + ". The job did not run; without --daemon (or with AUDIOENGINE_DAEMON unset) it runs in a "
                            + "process of its own.");
            return DaemonFiles.EXIT_NOT_STARTED;
        }
        return run(channel, socket, job, in, out, err);
    }

    /** Runs {@code job} over an open connection to the resident process at {@code socket}. */
    static int run(SocketChannel channel, Path socket, Job job, InputStream in, OutputStream out, OutputStream err) {
        String pid = "?";
        boolean stdoutOpen = true;
        try (channel) {
            Frames frames = new Frames(channel);
            frames.write(Frames.RUN, Frames.strings(job.encoded()));
            while (true) {
                Frames.Frame f = frames.read();
                switch (f.type()) {
                    case Frames.HELLO -> pid = f.text();
                    case Frames.STDOUT -> {
                        if (!stdoutOpen) continue;
                        try {
                            out.write(f.payload());
                            out.flush();
                        } catch (IOException closed) { // e.g. `| head`: the job's next write fails, as it would
                            stdoutOpen = false;
                            frames.write(Frames.STDOUT_CLOSED, new byte[0]);
                        }
                    }
                    case Frames.STDERR -> {
                        try {
                            err.write(f.payload());
                            err.flush();
                        } catch (IOException ignored) {
                            // nowhere left to say anything
                        }
                    }
                    case Frames.STDIN_WANTED -> {
                        byte[] b = new byte[Math.max(1, f.intValue())];
                        int n;
                        try {
                            n = in.read(b);
                        } catch (IOException e) {
                            n = -1;
                        }
                        frames.write(Frames.STDIN, b, 0, Math.max(n, 0));
                    }
                    case Frames.EXIT -> {
                        return f.intValue();
                    }
                    default -> throw new IOException("unexpected frame '" + (char) f.type() + "'");
                }
            }
        } catch (IOException e) {
            message(
                    err,
                    "the resident process (pid " + pid + ", " + socket + ") ended during the job"
                            + (e instanceof EOFException ? "" : " (" + e.getMessage() + ")")
                            + " without an exit status; the job's outputs may be incomplete. Its log: "
                            + log(socket) + ".");
            return DaemonFiles.EXIT_DIED;
        }
    }

    /** A connection to the process at {@code socket}, or null when nothing answers there (no file, or stale). */
    static SocketChannel connect(Path socket) throws IOException {
        if (!Files.exists(socket)) return null;
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            return channel;
        } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
            channel.close();
            return null;
        } catch (IOException e) {
            channel.close();
            if (e.getMessage() != null && e.getMessage().contains("refused")) return null;
            throw e;
        }
    }

    /**
     * Starts the resident process for {@code socket} in a session of its own (setsid: a Ctrl-C meant for one job does
     * not end it), its output in KEY.log, and waits until it answers.
     */
    private static SocketChannel start(Path socket, List<String> command, Duration idle) throws IOException {
        if (command.isEmpty()) throw new IOException("no command to start it with");
        List<String> full = new ArrayList<>();
        for (String setsid : List.of("/usr/bin/setsid", "/bin/setsid"))
            if (Files.isExecutable(Path.of(setsid))) {
                full.add(setsid);
                break;
            }
        full.addAll(command);
        full.add(socket.toString());
        full.add(Long.toString(idle.toMillis()));
        Path log = log(socket);
        Process p = new ProcessBuilder(full)
                .directory(socket.getParent().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectErrorStream(true)
                .start();
        long deadline = System.nanoTime() + START_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            SocketChannel c = connect(socket);
            if (c != null) return c;
            if (!p.isAlive() && p.exitValue() != DaemonFiles.EXIT_ALREADY_SERVED)
                throw new IOException("it exited with status " + p.exitValue() + " before answering; its log, " + log
                        + ", ends:\n" + tail(log));
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for it");
            }
        }
        throw new IOException("it did not answer on " + socket + " within " + START_WAIT.toSeconds() + " s; its log, "
                + log + ", ends:\n" + tail(log));
    }

    static Path log(Path socket) {
        String name = socket.getFileName().toString();
        return socket.resolveSibling(name.substring(0, name.length() - ".sock".length()) + ".log");
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** {@code audioengine daemon status}: a line per resident process of this user, or that there is none. */
    static int status(Path folder, PrintStream out, PrintStream err) {
        return each(folder, Frames.STATUS, out, err);
    }

    /** {@code audioengine daemon stop}: stops every resident process of this user (each ends its running job first). */
    static int stop(Path folder, PrintStream out, PrintStream err) {
        return each(folder, Frames.STOP, out, err);
    }

    private static int each(Path folder, byte request, PrintStream out, PrintStream err) {
        List<Path> sockets = new ArrayList<>();
        if (Files.isDirectory(folder)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, "*.sock")) {
                s.forEach(sockets::add);
            } catch (IOException e) {
                err.println(NAME + ": cannot list " + folder + ": " + e.getMessage());
                return 1;
            }
        }
        sockets.sort(null);
        int answered = 0;
        for (Path socket : sockets) {
            try (SocketChannel c = connect(socket)) {
                if (c == null) {
                    out.println(socket + ": no process behind it (stale; the next job there replaces it)");
                    continue;
                }
                Frames frames = new Frames(c);
                frames.write(request, new byte[0]);
                while (true) {
                    Frames.Frame f = frames.read();
                    if (f.type() == Frames.TEXT) {
                        out.println(f.text());
                        answered++;
                        break;
                    }
                }
            } catch (IOException e) {
                out.println(socket + ": " + e.getMessage());
            }
        }
        if (answered == 0 && request == Frames.STATUS) out.println("no resident process is running (" + folder + ")");
        if (answered == 0 && request == Frames.STOP) out.println("no resident process was running (" + folder + ")");
        out.flush();
        return 0;
    }

    private static void message(OutputStream err, String text) {
        try {
            err.write((NAME + ": " + text + "\n").getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException ignored) {
            // nowhere left to say it
        }
    }
}
