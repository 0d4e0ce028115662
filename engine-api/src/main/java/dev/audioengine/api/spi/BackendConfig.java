package dev.audioengine.api.spi;

import java.util.Map;

/**
 * Settings handed to {@link BackendProvider#open}. {@code threads} is the CPU worker count
 * (0 = all processors); {@code options} holds backend-specific keys such as
 * {@code cuda.graphs=off}, documented by each backend.
 */
public record BackendConfig(int threads, Map<String, String> options) {
    public BackendConfig {
        if (threads < 0) throw new IllegalArgumentException("threads must be >= 0, got " + threads);
        options = Map.copyOf(options);
    }

    public static BackendConfig defaults() {
        return new BackendConfig(0, Map.of());
    }

    public int resolvedThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }

    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }
}
