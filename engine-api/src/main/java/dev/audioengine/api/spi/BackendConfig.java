package dev.audioengine.api.spi;

import java.util.Map;

/**
 * Settings handed to {@link BackendProvider#open}. {@code threads} is the CPU worker count
 * (0 = all processors); {@code options} holds backend-specific keys such as
 * {@code cuda.graphs=off}, documented by each backend.
 *
 * @param threads CPU worker threads, {@code >= 0}; 0 means all available processors
 * @param options backend option keys to values, copied; {@code AudioEngine} refuses keys the provider does not list
 *     in {@link BackendProvider#optionKeys()} before a backend sees them
 */
public record BackendConfig(int threads, Map<String, String> options) {
    /**
     * Checks the thread count and copies the options.
     *
     * @param threads {@code >= 0}; 0 means all available processors
     * @param options backend option keys to values; copied, so later changes to the map are not seen
     * @throws IllegalArgumentException if threads is negative
     * @throws NullPointerException if options, or a key or value in it, is null
     */
    public BackendConfig {
        if (threads < 0) throw new IllegalArgumentException("threads must be >= 0, got " + threads);
        options = Map.copyOf(options);
    }

    /**
     * All processors, no options: what a backend gets when nothing was asked for.
     *
     * @return {@code new BackendConfig(0, Map.of())}
     */
    public static BackendConfig defaults() {
        return new BackendConfig(0, Map.of());
    }

    /**
     * The thread count to use.
     *
     * @return {@code threads}, or the number of available processors when it is 0
     */
    public int resolvedThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }

    /**
     * One option's value.
     *
     * @param key an option key, e.g. {@code "cuda.graphs"}
     * @param fallback what to return when the option was not given (the backend's default)
     * @return the value given, unparsed, or {@code fallback}
     */
    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }
}
