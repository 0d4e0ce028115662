package dev.audioengine.api.testkit;

/**
 * Seeds for randomized tests: a fresh one per call, so repeated runs explore new inputs, unless
 * {@code -Daudioengine.seed=N} pins it to replay a failure. Put {@link #describe} in every
 * assertion message.
 */
public final class Seeds {
    public static final String PROPERTY = "audioengine.seed";

    private Seeds() {}

    /** The pinned seed if {@code -Daudioengine.seed} is set, else a new one from the clock. */
    public static long fresh() {
        String pinned = System.getProperty(PROPERTY);
        if (pinned != null && !pinned.isBlank()) {
            try {
                return Long.parseLong(pinned.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + pinned + " is not a long", e);
            }
        }
        return mix(System.nanoTime());
    }

    /** "seed=N (replay: -Daudioengine.seed=N)". */
    public static String describe(long seed) {
        return "seed=" + seed + " (replay: -D" + PROPERTY + "=" + seed + ")";
    }

    /** SplitMix64 finalizer, so seeds taken nanoseconds apart differ in every bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
