package dev.audioengine.cli.daemon;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.model.FamilyRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resident process: serves jobs on a Unix domain socket (see {@link DaemonFiles} for where and why it is safe),
 * one at a time, with the backend and family registries (and so the JIT-compiled kernels, and the models {@link
 * ResidentModels} keeps) of earlier jobs. Jobs run one at a time because a job owns process-wide state: the working
 * folder (chdir), System.out/err/in, the log level and the CPU threads; on a machine of few cores two jobs at once
 * would each be slower anyway. Clients that come while a job runs wait their turn.
 *
 * <p>It exits after {@code idle} with no job (running or waiting), on {@code audioengine daemon stop} (after the
 * running and waiting jobs), and gives its socket up at exit.
 */
public final class DaemonServer implements AutoCloseable {
    /** The process's own stderr (its log file), taken before any job replaces System.err with the job's. */
    static final PrintStream LOG = System.err;

    private final Path socket, home;
    private final Duration idle;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final ServerSocketChannel server;
    private final ExecutorService jobs = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "audioengine-job");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicLong lastActive = new AtomicLong(System.nanoTime());
    private final long started = System.currentTimeMillis();
    private final Thread acceptor;
    private final Object stopped = new Object();
    private volatile boolean stopping;
    private BackendRegistry registry;
    private FamilyRegistry families;
    final ResidentModels models = new ResidentModels();

    private DaemonServer(Path socket, Duration idle, FileChannel lockFile, FileLock lock) throws IOException {
        this.socket = socket;
        this.idle = idle;
        this.home = Path.of("").toAbsolutePath(); // the client starts it in the socket's folder
        this.lockFile = lockFile;
        this.lock = lock;
        // nobody holds the lock, so nothing answers on a socket file that is there: a crashed process's, replaced
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        acceptor = new Thread(this::accept, "audioengine-daemon-accept");
        acceptor.start();
        Thread watchdog = new Thread(this::watchIdle, "audioengine-daemon-idle");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * Serves {@code socket} (in a folder {@link DaemonFiles#secure} checked), or returns null when another process
     * serves it (it holds the lock and answers there) within {@code wait}.
     */
    public static DaemonServer start(Path socket, Duration idle, Duration wait) throws IOException {
        DaemonFiles.secure(socket.getParent());
        Path lockPath = socket.resolveSibling(socket.getFileName().toString().replaceFirst("\\.sock$", "") + ".lock");
        FileChannel ch = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException inThisJvm) {
                l = null;
            }
            if (l != null) return new DaemonServer(socket, idle, ch, l);
            // another process holds it: one that serves (then use it), or one still stopping (then wait for it)
            SocketChannel c = DaemonClient.connect(socket);
            if (c != null) {
                c.close();
                ch.close();
                return null;
            }
            if (System.nanoTime() > deadline) {
                ch.close();
                throw new IOException("another process holds " + lockPath + " but does not answer on " + socket);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                ch.close();
                throw new IOException("interrupted", e);
            }
        }
    }

    /** Launcher entry: SOCKET IDLE_MILLIS. Exits 75 when another process serves the socket. */
    public static void main(String[] args) throws Exception {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null)
            System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%6$s%n");
        Path socket = Path.of(args[0]);
        Duration idle = Duration.ofMillis(Long.parseLong(args[1]));
        DaemonServer d = start(socket, idle, Duration.ofSeconds(30));
        if (d == null) {
            LOG.println("audioengine daemon: another process serves " + socket + "; leaving it to that one");
            System.exit(DaemonFiles.EXIT_ALREADY_SERVED);
        }
        LOG.println("audioengine daemon: pid " + ProcessHandle.current().pid() + " serves " + socket + " (engine "
                + DaemonFiles.version() + "); exits after " + describe(idle) + " without a job");
        d.awaitStop();
        LOG.println("audioengine daemon: stopped after " + d.done.get() + " jobs");
        System.exit(0);
    }

    private void accept() {
        while (!stopping) {
            SocketChannel c;
            try {
                c = server.accept();
            } catch (ClosedChannelException e) {
                break;
            } catch (IOException e) {
                if (stopping) break;
                LOG.println("audioengine daemon: accept failed: " + e);
                continue;
            }
            lastActive.set(System.nanoTime());
            Thread.ofVirtual().name("audioengine-daemon-connection").start(() -> handle(c));
        }
    }

    private void handle(SocketChannel c) {
        try {
            Frames frames = new Frames(c);
            frames.write(Frames.HELLO, Long.toString(ProcessHandle.current().pid()));
            Frames.Frame request = frames.read();
            switch (request.type()) {
                case Frames.STATUS -> {
                    frames.write(Frames.TEXT, status());
                    c.close();
                }
                case Frames.STOP -> {
                    frames.write(
                            Frames.TEXT,
                            "stopping pid " + ProcessHandle.current().pid() + " (" + socket + ")"
                                    + (pending.get() > 0
                                            ? " after its " + pending.get() + " running or waiting jobs"
                                            : ""));
                    c.close();
                    stop();
                }
                case Frames.RUN -> {
                    DaemonJob job = new DaemonJob(c, frames, Frames.strings(request.payload()));
                    pending.incrementAndGet();
                    try {
                        jobs.execute(() -> {
                            try {
                                job.run(this);
                            } finally {
                                done.incrementAndGet();
                                lastActive.set(System.nanoTime());
                                pending.decrementAndGet();
                            }
                        });
                    } catch (java.util.concurrent.RejectedExecutionException stoppedMeanwhile) {
                        pending.decrementAndGet();
                        c.close(); // the client says the process ended before an exit status
                    }
                }
                default -> c.close();
            }
        } catch (IOException e) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    private String status() {
        long now = System.currentTimeMillis();
        long idleFor = pending.get() > 0 ? 0 : (System.nanoTime() - lastActive.get()) / 1_000_000;
        return String.format(
                Locale.ROOT,
                "pid %d, engine %s, up %s, %s, %d jobs done, %s; exits after %s without a job; memory: %s; %s",
                ProcessHandle.current().pid(),
                DaemonFiles.version(),
                describe(Duration.ofMillis(now - started)),
                pending.get() > 0
                        ? pending.get() + " jobs running or waiting"
                        : "idle for " + describe(Duration.ofMillis(idleFor)),
                done.get(),
                models.describe(),
                describe(idle),
                memory(),
                socket);
    }

    /** Resident and peak resident memory from /proc (Linux), as {@code time -f %M} counts it. */
    static String memory() {
        try {
            String rss = "?", hwm = "?";
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) rss = line.substring(6).strip();
                if (line.startsWith("VmHWM:")) hwm = line.substring(6).strip();
            }
            return "RSS " + rss + ", peak " + hwm;
        } catch (IOException e) {
            return "unknown";
        }
    }

    static String describe(Duration d) {
        long s = d.toSeconds();
        if (s < 1) return d.toMillis() + " ms";
        if (s < 120) return s + " s";
        if (s < 7200) return s / 60 + " min";
        return String.format(Locale.ROOT, "%.1f h", s / 3600.0);
    }

    private void watchIdle() {
        long step = Math.max(20, Math.min(1000, idle.toMillis() / 10));
        while (!stopping) {
            try {
                Thread.sleep(step);
            } catch (InterruptedException e) {
                return;
            }
            if (pending.get() == 0 && System.nanoTime() - lastActive.get() >= idle.toNanos()) {
                LOG.println("audioengine daemon: no job for " + describe(idle) + "; exiting");
                stop();
            }
        }
    }

    /** Stops accepting, lets the running and waiting jobs finish, gives the socket up. */
    public void stop() {
        synchronized (stopped) {
            if (stopping) return;
            stopping = true;
        }
        Thread.ofPlatform().name("audioengine-daemon-stop").start(() -> {
            try {
                server.close();
                jobs.shutdown();
                jobs.awaitTermination(365, TimeUnit.DAYS);
            } catch (IOException | InterruptedException e) {
                LOG.println("audioengine daemon: while stopping: " + e);
            } finally {
                models.close();
                try {
                    Files.deleteIfExists(socket); // still ours: we hold the lock
                    lock.release();
                    lockFile.close();
                } catch (IOException e) {
                    LOG.println("audioengine daemon: while giving the socket up: " + e);
                }
                synchronized (stopped) {
                    stopped.notifyAll();
                    finished = true;
                }
            }
        });
    }

    private boolean finished;

    /** Waits until the process has stopped serving (idle time out, {@code daemon stop} or {@link #close}). */
    public void awaitStop() throws InterruptedException {
        synchronized (stopped) {
            while (!finished) stopped.wait();
        }
    }

    /** Whether it stopped serving. */
    public boolean finished() {
        synchronized (stopped) {
            return finished;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        awaitStop();
    }

    /**
     * Where the process returns between jobs: its own start folder, the socket's folder (never a job's, which may be
     * removed meanwhile).
     */
    Path home() {
        return home;
    }

    synchronized BackendRegistry registry() {
        if (registry == null) registry = BackendRegistry.load();
        return registry;
    }

    synchronized FamilyRegistry families() {
        if (families == null) families = FamilyRegistry.load();
        return families;
    }
}
