package dev.audioengine.server.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Ends uploads that stall. Helidon 4.5 applies no read timeout to a request in progress, so a client that stops
 * sending mid-body would hold its connection (a virtual thread, a spooled file) until it goes away. A request reads its
 * body on its own virtual thread; interrupting a virtual thread blocked on a socket closes that socket, which is how a
 * watch that saw no byte for the stall time ends it, after its stall action has answered the client (408) while the
 * socket was still open. One platform thread ticks for the whole server.
 */
public final class UploadWatchdog implements AutoCloseable {
    private final long stallNanos;
    private final ScheduledExecutorService clock;
    private final Map<Watch, Boolean> watches = new ConcurrentHashMap<>();

    public UploadWatchdog(Duration stall) {
        stallNanos = stall.toNanos();
        clock = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "audioengine-upload-watchdog");
            t.setDaemon(true);
            return t;
        });
        long tick = Math.max(10, Math.min(1000, stall.toMillis() / 4));
        clock.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    Duration stall() {
        return Duration.ofNanos(stallNanos);
    }

    /** Watches the calling thread's reads until the watch is closed; call {@link Watch#progress} after each read. */
    Watch watch() {
        return watch(() -> {});
    }

    /** The same, running {@code onStall} (the 408, written while the reading thread is blocked) before the socket is closed. */
    Watch watch(Runnable onStall) {
        Watch w = new Watch(Thread.currentThread(), onStall);
        watches.put(w, Boolean.TRUE);
        return w;
    }

    private void tick() {
        long now = System.nanoTime();
        for (Watch w : watches.keySet()) {
            if (now - w.lastProgress > stallNanos) w.fire();
        }
    }

    @Override
    public void close() {
        clock.shutdownNow();
    }

    /** One request's upload. */
    final class Watch implements AutoCloseable {
        private final Thread reader;
        private final Runnable onStall;
        private volatile long lastProgress = System.nanoTime();
        private boolean fired, closed; // guarded by this

        private Watch(Thread reader, Runnable onStall) {
            this.reader = reader;
            this.onStall = onStall;
        }

        void progress() {
            lastProgress = System.nanoTime();
        }

        /** {@code in}, telling this watch after each read that the upload moves. */
        InputStream watched(InputStream in) {
            return new FilterInputStream(in) {
                @Override
                public int read() throws IOException {
                    int b = super.read();
                    progress();
                    return b;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    progress();
                    return n;
                }
            };
        }

        /** Whether the watchdog ended the upload. */
        synchronized boolean fired() {
            return fired;
        }

        private synchronized void fire() {
            if (closed || fired) return;
            fired = true;
            watches.remove(this);
            try {
                onStall.run();
            } catch (RuntimeException e) {
                // the client is gone too: there was no one to answer
            }
            reader.interrupt();
        }

        @Override
        public synchronized void close() {
            closed = true;
            watches.remove(this);
            // a firing that met no blocking read left the flag set: it must not break the model work that follows
            if (fired && reader == Thread.currentThread()) Thread.interrupted();
        }
    }
}
