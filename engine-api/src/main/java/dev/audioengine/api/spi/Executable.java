package dev.audioengine.api.spi;

/** A run of nodes compiled for one backend with fixed placements; replayed once per run. */
public interface Executable extends AutoCloseable {
    /** Runs every node; returns once results are visible to the next download. */
    void run();

    @Override
    default void close() {}
}
