package dev.audioengine.api.exec;

/** What to do with a node the chosen backend cannot compute. */
public enum FallbackPolicy {
    /** Run it on the CPU backend with explicit copies, listed in the run summary. */
    CPU,
    /** Refuse to compile the graph, naming every unsupported node. */
    FAIL
}
