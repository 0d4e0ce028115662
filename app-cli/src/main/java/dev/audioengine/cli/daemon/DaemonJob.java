package dev.audioengine.cli.daemon;

import dev.audioengine.cli.AudioEngineCommand;
import dev.audioengine.cli.Main;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One job in the resident process: the command run as Main runs it, in the client's folder, with System.in/out/err,
 * the command's own byte streams and the root log handler connected to the client, and the terminal flag and width
 * the client saw. Everything is put back afterwards; the registries and kept models stay.
 */
final class DaemonJob {
    private final SocketChannel channel;
    private final Frames frames;
    private final Path directory;
    private final boolean terminal;
    private final String columns;
    private final List<String> args;
    private final SynchronousQueue<byte[]> stdinChunks = new SynchronousQueue<>();
    private volatile boolean clientGone, stdoutClosed, finished;
    private volatile Thread runner;

    DaemonJob(SocketChannel channel, Frames frames, List<String> request) throws IOException {
        if (request.size() < 3) throw new IOException("malformed job");
        this.channel = channel;
        this.frames = frames;
        this.directory = Path.of(request.get(0));
        this.terminal = Boolean.parseBoolean(request.get(1));
        this.columns = request.get(2);
        this.args = List.copyOf(request.subList(3, request.size()));
    }

    void run(DaemonServer daemon) {
        runner = Thread.currentThread();
        Thread reader = Thread.ofVirtual().name("audioengine-job-input").start(this::readClient);
        PrintStream savedOut = System.out, savedErr = System.err;
        InputStream savedIn = System.in;
        Logger root = Logger.getLogger("");
        Handler[] savedHandlers = root.getHandlers();
        Level savedLevel = root.getLevel();
        String savedTerminal = System.getProperty("audioengine.stderr.terminal");
        int status;
        OutputStream out = new Sink(Frames.STDOUT), err = new Sink(Frames.STDERR);
        PrintStream jobOut = new PrintStream(new BufferedOutputStream(out, 8192), true, charset("stdout.encoding"));
        PrintStream jobErr = new PrintStream(new BufferedOutputStream(err, 8192), true, charset("stderr.encoding"));
        try {
            WorkingDirectory.enter(directory);
            System.setOut(jobOut);
            System.setErr(jobErr);
            System.setIn(new Source());
            System.setProperty("audioengine.stderr.terminal", Boolean.toString(terminal));
            System.setProperty("audioengine.columns", columns.isEmpty() ? "80" : columns);
            // as in a fresh JVM: the default level, and a console handler on (the job's) System.err
            for (Handler h : savedHandlers) root.removeHandler(h);
            root.setLevel(Level.INFO);
            root.addHandler(new ConsoleHandler());
            AudioEngineCommand top = new AudioEngineCommand(daemon::registry, daemon::families).streams(System.in, out);
            top.models(daemon.models);
            status = Main.execute(top, args.toArray(String[]::new));
        } catch (IOException e) { // the folder could not be entered
            jobErr.println("audioengine: " + e.getMessage());
            status = dev.audioengine.cli.ErrorReporter.EXIT_FAILURE;
        } catch (RuntimeException | Error e) { // Main.execute maps everything it can; this is the rest
            jobErr.println("error: internal error (please report it with this trace): " + e);
            e.printStackTrace(jobErr);
            status = dev.audioengine.cli.ErrorReporter.EXIT_FAILURE;
        } finally {
            for (Handler h : root.getHandlers()) {
                h.flush();
                root.removeHandler(h);
            }
            for (Handler h : savedHandlers) root.addHandler(h);
            root.setLevel(savedLevel);
            jobOut.flush();
            jobErr.flush();
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setIn(savedIn);
            if (savedTerminal == null) System.clearProperty("audioengine.stderr.terminal");
            else System.setProperty("audioengine.stderr.terminal", savedTerminal);
            System.clearProperty("audioengine.columns");
            try {
                WorkingDirectory.leave(daemon.home());
            } catch (IOException e) {
                DaemonServer.LOG.println("audioengine daemon: " + e.getMessage());
            }
        }
        finished = true;
        // a job whose client left may have been interrupted anywhere, a kept model's run included: load them afresh
        if (clientGone) daemon.models.clear();
        try {
            frames.writeInt(Frames.EXIT, status);
        } catch (IOException e) {
            // the client left (Ctrl-C): nobody to tell
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // already broken
        }
        reader.interrupt();
        Thread.interrupted(); // a cancel that came late must not reach the next job
    }

    private static Charset charset(String property) {
        String name = System.getProperty(property);
        try {
            return name != null ? Charset.forName(name) : Charset.defaultCharset();
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /** Reads what the client sends during the job: stdin chunks, a closed stdout; its leaving cancels the job. */
    private void readClient() {
        try {
            while (true) {
                Frames.Frame f = frames.read();
                if (f.type() == Frames.STDIN) stdinChunks.put(f.payload());
                else if (f.type() == Frames.STDOUT_CLOSED) stdoutClosed = true;
            }
        } catch (IOException | InterruptedException e) {
            if (channel.isOpen() && !(e instanceof InterruptedException) && !finished) {
                // The client went away mid-job (Ctrl-C, killed). A run of its own would end here; this one is told
                // where it listens (an interrupt, stdin at its end, writes that fail as on a closed pipe) and given
                // ABANDON_GRACE to stop. One that goes on (a loop over many inputs whose lines go to a PrintWriter,
                // which swallows the failures) would hold every later job back: then the process exits, as the run of
                // its own would have, and the next call starts a fresh one.
                clientGone = true;
                stdinChunks.offer(new byte[0]);
                Thread r = runner;
                if (r != null) r.interrupt();
                try {
                    Thread.sleep(ABANDON_GRACE);
                } catch (InterruptedException stopped) {
                    return;
                }
                if (!finished) {
                    DaemonServer.LOG.println("audioengine daemon: the client of a job left " + ABANDON_GRACE.toSeconds()
                            + " s ago and the job still runs; exiting, as that job's own process would have");
                    System.exit(
                            DaemonFiles.EXIT_DIED); // with the shutdown hooks, as Ctrl-C runs them (TTS keeps what it
                    // made)
                }
            }
        }
    }

    /** How long a job whose client left may take to notice before the process exits. */
    static final java.time.Duration ABANDON_GRACE = java.time.Duration.ofSeconds(10);

    /** The job's stdout or stderr: frames to the client. A write after the client left fails, as on a closed pipe. */
    private final class Sink extends OutputStream {
        private final byte type;

        Sink(byte type) {
            this.type = type;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len == 0) return;
            if (clientGone || (type == Frames.STDOUT && stdoutClosed)) throw new IOException("Broken pipe");
            frames.write(type, b, off, len);
        }
    }

    /** The job's stdin: each read asks the client for what its own read of stdin gives. */
    private final class Source extends InputStream {
        private boolean eof;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (eof) return -1;
            frames.writeInt(Frames.STDIN_WANTED, Math.min(len, 1 << 16));
            byte[] chunk;
            try {
                chunk = stdinChunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("the client left");
            }
            if (chunk.length == 0) {
                eof = true;
                return -1;
            }
            System.arraycopy(chunk, 0, b, off, chunk.length);
            return chunk.length;
        }
    }
}
