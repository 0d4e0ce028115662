package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.cli.task.TaskOptions;
import dev.audioengine.model.FamilyRegistry;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code audioengine} command. It holds the global options and the backend
 * registry (probed once per process) for its subcommands, which reach them through
 * {@code @ParentCommand AudioEngineCommand}.
 */
@Command(
        name = "audioengine",
        scope = ScopeType.INHERIT, // subcommands inherit --help, --version and the footer
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Audio neural models (voice activity detection, speech recognition, synthesis, separation, codecs) "
                    + "on the CPU or any vendor's GPU.",
            "Backends are drop-in modules: a backend jar on the module path adds that backend.",
            ""
        },
        // the subcommands are added by Main (built only when the arguments may need them); bench, check and kernels
        // come from the tools jar through ServiceLoader (ToolCommands)
        footer = {
            "",
            "Exit status: 0 success, 1 the request could not be served (e.g. backend unavailable), 2 usage error.",
            "Global options may stand before or after the subcommand name."
        })
public final class AudioEngineCommand implements Runnable, CliContext {

    @Mixin
    private GlobalOptions globals = new GlobalOptions();

    @Mixin
    private TaskOptions task = new TaskOptions();

    @Spec
    private CommandSpec spec;

    private final Supplier<BackendRegistry> registrySource;
    private final Supplier<FamilyRegistry> familySource;
    private BackendRegistry registry;
    private FamilyRegistry families;
    private java.io.InputStream stdin = System.in;
    private ModelKeeper models = ModelKeeper.NONE;
    /** Not System.out: a PrintStream swallows write errors, so a closed pipe would go on being fed a whole synthesis. */
    private java.io.OutputStream stdout = new java.io.FileOutputStream(java.io.FileDescriptor.out);

    /** Discovers backends with ServiceLoader (module path, then META-INF/services on the class path). */
    public AudioEngineCommand() {
        this(BackendRegistry::load);
    }

    /** For tests and embedders that bring their own providers or module layer. */
    public AudioEngineCommand(Supplier<BackendRegistry> registrySource) {
        this(registrySource, FamilyRegistry::load);
    }

    /** For tests and embedders that also bring their own model families. */
    public AudioEngineCommand(Supplier<BackendRegistry> registrySource, Supplier<FamilyRegistry> familySource) {
        this.registrySource = registrySource;
        this.familySource = familySource;
    }

    @Override
    public GlobalOptions globals() {
        return globals;
    }

    /**
     * Standard input and output as bytes (the WAV of --task tts --out -); tests and the resident process's jobs bring
     * their own.
     */
    public AudioEngineCommand streams(java.io.InputStream in, java.io.OutputStream out) {
        stdin = in;
        stdout = out;
        return this;
    }

    /** Where tasks get engines and models: a resident process hands its keeper in; by default each run opens its own. */
    public AudioEngineCommand models(ModelKeeper keeper) {
        models = keeper;
        return this;
    }

    @Override
    public ModelKeeper models() {
        return models;
    }

    @Override
    public java.io.InputStream stdin() {
        return stdin;
    }

    @Override
    public java.io.OutputStream stdout() {
        return stdout;
    }

    /** The registry, loaded on first use; probes are cached inside it. */
    @Override
    public synchronized BackendRegistry registry() {
        if (registry == null) registry = registrySource.get();
        return registry;
    }

    /** The model families on the module path (and class path), found on first use. */
    @Override
    public synchronized FamilyRegistry families() {
        if (families == null) families = familySource.get();
        return families;
    }

    /** An engine builder configured from the global options. */
    @Override
    public AudioEngine.Builder engineBuilder() {
        return EngineFactory.builder(globals, registry());
    }

    /** Runs --task when given; without it or a subcommand there is nothing to do: show the usage. */
    @Override
    public void run() {
        if (task.requested()) {
            try {
                task.run(this, spec.commandLine().getOut(), spec.commandLine().getErr());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e.getMessage(), e);
            }
            return;
        }
        String stray = task.strayOption();
        if (stray != null)
            throw new UsageError(
                    stray
                            + " needs --task (e.g. --task vad, --task asr or --task tts); 'audioengine --help' lists the tasks");
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
