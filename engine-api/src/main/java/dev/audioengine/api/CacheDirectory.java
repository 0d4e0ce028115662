package dev.audioengine.api;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the engine keeps what it caches (model files, compiled GPU kernels): {@code $AUDIOENGINE_CACHE} when set, else
 * {@code $XDG_CACHE_HOME/audioengine}, else {@code $HOME/.cache/audioengine}. Read from the environment variables, as the XDG base-directory rule says, not from
 * Java's {@code user.home} (which is the account's passwd entry and ignores {@code HOME=/tmp/x audioengine ...}).
 */
public final class CacheDirectory {
    private CacheDirectory() {}

    /**
     * The cache folder for this process's environment.
     *
     * @return the path; it may not exist yet (callers create what they need under it)
     * @throws IllegalStateException if neither AUDIOENGINE_CACHE, XDG_CACHE_HOME nor HOME is set
     */
    public static Path resolve() {
        return resolve(System.getenv());
    }

    /**
     * The cache folder for {@code env}; a relative XDG_CACHE_HOME is ignored, as the XDG rule requires.
     *
     * @param env environment variables by name (a test's map, or {@link System#getenv()}); blank values count as unset
     * @return the path, not created; relative only if AUDIOENGINE_CACHE is
     * @throws IllegalStateException if none of the three variables gives a folder
     */
    public static Path resolve(Map<String, String> env) {
        String own = env.get("AUDIOENGINE_CACHE");
        if (own != null && !own.isBlank()) return Path.of(own);
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return Path.of(xdg, "audioengine");
        String home = env.get("HOME");
        if (home != null && !home.isBlank()) return Path.of(home, ".cache", "audioengine");
        throw new IllegalStateException(
                "neither XDG_CACHE_HOME nor HOME is set, so there is no cache folder; set one of them "
                        + "(e.g. export XDG_CACHE_HOME=/var/cache)");
    }
}
