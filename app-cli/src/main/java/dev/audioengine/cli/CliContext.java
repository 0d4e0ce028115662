package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.model.FamilyRegistry;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * What a subcommand or a task needs from the top command: the global options, the registries and the standard
 * streams. Subcommands take it as their {@code @ParentCommand} (picocli injects the parent when its type is
 * assignable), so they depend on this interface and not on {@link AudioEngineCommand}, which lists them: the
 * command tree has no import cycle, and a tool jar ({@code CliTool}) compiles against this alone.
 */
public interface CliContext {

    /** The options given before or after the subcommand name (backend, device, threads, logging...). */
    GlobalOptions globals();

    /** Standard input as bytes (tests bring their own). */
    InputStream stdin();

    /** Standard output as bytes, for audio written to {@code -} (tests bring their own). */
    OutputStream stdout();

    /** The backend registry, loaded on first use; probes are cached inside it. */
    BackendRegistry registry();

    /** The model families on the module path (and class path), found on first use. */
    FamilyRegistry families();

    /** An engine builder configured from the global options. */
    AudioEngine.Builder engineBuilder();

    /** Where tasks get engines and models: a run of its own opens and closes them; a resident process keeps them. */
    default ModelKeeper models() {
        return ModelKeeper.NONE;
    }
}
