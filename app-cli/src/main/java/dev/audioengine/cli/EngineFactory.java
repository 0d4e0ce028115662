package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.registry.BackendRegistry;

/** Turns the global options into an {@link AudioEngine.Builder}; every command that runs a model starts here. */
public final class EngineFactory {
    private EngineFactory() {}

    /**
     * A builder with backend, device, threads, capability switches, fallback policy and backend
     * options taken from {@code options}, selecting from {@code registry}. Callers may adjust it
     * further before {@code build()}, which throws BackendUnavailableException when the request
     * cannot be served.
     */
    public static AudioEngine.Builder builder(GlobalOptions options, BackendRegistry registry) {
        if (options.devices().size() > 1)
            throw new UsageError("--device "
                    + options.devices().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))
                    + ": only 'serve' and '--task asr' spread over several devices; give this command one");
        return builder(options, registry, options.device());
    }

    /** As {@link #builder(GlobalOptions, BackendRegistry)} on {@code device}, one of the devices --device names. */
    public static AudioEngine.Builder builder(GlobalOptions options, BackendRegistry registry, int device) {
        AudioEngine.Builder b = AudioEngine.builder()
                .registry(registry)
                .backend(options.backend())
                .device(device)
                .threads(options.threads())
                .fallback(options.fallback())
                .capability(options.capabilities().toArray(String[]::new));
        options.options().forEach(b::option);
        return b;
    }
}
