package dev.audioengine.cli.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where resident processes live and which one a client may talk to. Every user has one folder, readable and writable
 * by its owner alone (0700): that folder is the protection, since the JDK cannot ask a Unix socket for its peer's uid
 * (no SO_PEERCRED), so anyone who can reach the socket file is the owner (or root). In it, per resident process:
 * {@code KEY.sock} (the socket), {@code KEY.lock} (held while it runs, so that a second one for the same key waits
 * or leaves and a socket file with no process behind it is known to be stale) and {@code KEY.log} (its own output).
 *
 * <p>KEY is a digest of everything that decides what a job does apart from its arguments and folder: the engine
 * version, the resident process's command line (JVM options, module path), the size and time of every jar on that
 * module path and of the Java runtime's module image (so a rebuilt or upgraded install never talks to an old
 * process), and the environment variables the engine or its native libraries read ({@link #KEYED_ENVIRONMENT}).
 */
final class DaemonFiles {
    private DaemonFiles() {}

    /** Exit status of the client when no resident process could be started or reached: the job did not run. */
    static final int EXIT_NOT_STARTED = 3;

    /** Exit status of the client when the resident process ended during the job: its outputs may be incomplete. */
    static final int EXIT_DIED = 4;

    /** Exit status of a resident process that found another one serving its socket: the client uses that one. */
    static final int EXIT_ALREADY_SERVED = 75;

    /**
     * Variables that select a resident process of their own when they differ: those the engine reads (its own, the
     * cache's, espeak-ng's), those that decide which programs and native libraries are found (PATH for npm and ffmpeg,
     * LD_LIBRARY_PATH), the locale and time zone (the JVM reads them once, at its start), and the GPU vendors'
     * device selections. A job sees the resident process's environment for every other variable.
     */
    static final List<String> KEYED_ENVIRONMENT = List.of(
            "HOME",
            "XDG_CACHE_HOME",
            "PATH",
            "LD_LIBRARY_PATH",
            "ESPEAK_DATA_PATH",
            "LANG",
            "LANGUAGE",
            "TZ",
            "TMPDIR",
            "CUDA_VISIBLE_DEVICES",
            "HIP_VISIBLE_DEVICES",
            "ROCR_VISIBLE_DEVICES",
            "GPU_DEVICE_ORDINAL");

    /** Prefixes of keyed variables: the engine's own (but the client's AUDIOENGINE_DAEMON*), the locale's, Vulkan's. */
    static final List<String> KEYED_PREFIXES = List.of("AUDIOENGINE_", "LC_", "VK_", "OPENBLAS_", "OMP_");

    /**
     * The folder of this user's resident processes: $AUDIOENGINE_DAEMON_DIR when set, else $XDG_RUNTIME_DIR/audioengine
     * (a per-login tmpfs) when that is set, else $XDG_CACHE_HOME/audioengine/daemon or ~/.cache/audioengine/daemon.
     */
    static Path folder(Map<String, String> env) {
        String own = env.get("AUDIOENGINE_DAEMON_DIR");
        if (own != null && !own.isBlank()) return Path.of(own);
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null
                && !runtime.isBlank()
                && Path.of(runtime).isAbsolute()
                && Files.isDirectory(Path.of(runtime))) return Path.of(runtime, "audioengine");
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return Path.of(xdg, "audioengine", "daemon");
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home, ".cache", "audioengine", "daemon");
    }

    /**
     * Creates {@code dir} with owner-only permissions, or checks that an existing one is this user's and owner-only.
     *
     * @throws IOException saying what is wrong and what to do
     */
    static void secure(Path dir) throws IOException {
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(ownerOnly));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another client made it at the same moment: check it below like any existing folder
            }
            Files.setPosixFilePermissions(dir, ownerOnly); // the umask may have taken bits away, never added any
        }
        BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isDirectory()) throw new IOException(dir + " is not a folder; remove it or set AUDIOENGINE_DAEMON_DIR");
        String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        if (!owner.equals(System.getProperty("user.name")))
            throw new IOException(dir + " belongs to " + owner + ", not to " + System.getProperty("user.name")
                    + "; its sockets could reach another user's process: set AUDIOENGINE_DAEMON_DIR to a folder of "
                    + "your own");
        Set<PosixFilePermission> actual = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!actual.equals(ownerOnly))
            throw new IOException(dir + " has permissions " + PosixFilePermissions.toString(actual)
                    + "; the resident process's folder must be owner-only: chmod 700 " + dir);
    }

    /** The engine version the jar carries (version.properties), or "unknown". */
    static String version() {
        try (InputStream in = DaemonFiles.class.getResourceAsStream("/dev/audioengine/cli/version.properties")) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The key of the resident process that {@code command} starts under {@code env}; see the class comment. */
    static String key(List<String> command, Map<String, String> env) {
        List<String> parts = new ArrayList<>();
        parts.add("version=" + version());
        parts.addAll(command);
        for (int i = 0; i + 1 < command.size(); i++) {
            if (command.get(i).equals("-p") || command.get(i).equals("--module-path")) {
                for (String dir : command.get(i + 1).split(":")) stamps(Path.of(dir), parts);
            }
        }
        if (!command.isEmpty()) { // the runtime's own modules: a JDK update, or a rebuilt jlink image
            Path java = Path.of(command.getFirst()).toAbsolutePath();
            if (java.getParent() != null && java.getParent().getParent() != null)
                stamp(java.getParent().getParent().resolve("lib").resolve("modules"), parts);
        }
        new TreeMap<>(env).forEach((name, value) -> {
            if (keyed(name)) parts.add(name + "=" + value);
        });
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                sha.update(p.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean keyed(String name) {
        if (name.startsWith("AUDIOENGINE_DAEMON")) return false; // the client's own switches
        return KEYED_ENVIRONMENT.contains(name) || KEYED_PREFIXES.stream().anyMatch(name::startsWith);
    }

    private static void stamps(Path dir, List<String> parts) {
        if (!Files.isDirectory(dir)) {
            stamp(dir, parts);
            return;
        }
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.jar")) {
            s.forEach(jars::add);
        } catch (IOException e) {
            parts.add(dir + ": " + e);
        }
        jars.sort(null);
        for (Path jar : jars) stamp(jar, parts);
    }

    private static void stamp(Path file, List<String> parts) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            parts.add(file + " " + a.size() + " " + a.lastModifiedTime().toMillis());
        } catch (IOException e) {
            parts.add(file + " absent");
        }
    }
}
