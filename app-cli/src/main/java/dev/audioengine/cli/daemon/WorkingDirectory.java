package dev.audioengine.cli.daemon;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * The process's working folder, which a resident process moves to each job's folder with chdir(2): Java has no way to
 * change it, and resolving the options that name files against the job's folder instead would not do, since relative
 * paths also reach native libraries (libsndfile, espeak-ng), child processes (ffmpeg, npm) and messages, where a run
 * of its own shows them as typed. The kernel resolves a relative path at every open, so after chdir they all behave
 * as in a process started in that folder. One thing does not follow: the JVM's cached {@code user.dir}, which
 * {@link Path#toAbsolutePath()} uses; code that needs an absolute path of a file the user named calls
 * {@link #absolute(Path)} instead. Jobs run one at a time, so the process-wide folder is the running job's.
 */
public final class WorkingDirectory {
    private WorkingDirectory() {}

    /** The running job's folder in a resident process; null in a run of its own. */
    private static volatile Path current;

    private static MethodHandle chdir;
    private static final StructLayoutHolder ERRNO = new StructLayoutHolder();

    /** {@code p} made absolute against the job's folder (the process's working folder). */
    public static Path absolute(Path p) {
        Path base = current;
        return base == null || p.isAbsolute() ? p.toAbsolutePath() : base.resolve(p);
    }

    /** Moves the process to {@code dir} (absolute) for a job. */
    static synchronized void enter(Path dir) throws java.io.IOException {
        change(dir);
        current = dir;
    }

    /** Moves the process back to {@code home} after a job. */
    static synchronized void leave(Path home) throws java.io.IOException {
        current = null;
        change(home);
    }

    private static void change(Path dir) throws java.io.IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(ERRNO.layout);
            int rc = (int) handle().invokeExact(state, arena.allocateFrom(dir.toString()));
            if (rc != 0) {
                int errno = (int) ERRNO.errno.get(state, 0L);
                throw new java.io.IOException("cannot enter the job's folder " + dir + " (chdir: errno " + errno + ")");
            }
        } catch (java.io.IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle handle() {
        if (chdir == null) {
            Linker linker = Linker.nativeLinker();
            chdir = linker.downcallHandle(
                    linker.defaultLookup().find("chdir").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
                    Linker.Option.captureCallState("errno"));
        }
        return chdir;
    }

    /** errno as the linker captures it. */
    private static final class StructLayoutHolder {
        final java.lang.foreign.StructLayout layout = Linker.Option.captureStateLayout();
        final VarHandle errno = layout.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    }
}
