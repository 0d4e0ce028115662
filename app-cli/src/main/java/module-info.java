/**
 * The audioengine command. Backends and model families arrive on the module path at run time, never at compile time:
 * the CLI knows tasks (vad, ...) and finds the families that serve them through the registry. Diagnostics (bench,
 * check, kernels) arrive the same way, as {@link dev.audioengine.cli.spi.CliTool}s of the tools jar, which a
 * production image leaves out.
 */
module dev.audioengine.cli {
    requires dev.audioengine.api;
    requires dev.audioengine.model;
    requires dev.audioengine.audio;
    requires dev.audioengine.server;
    requires info.picocli;
    requires java.logging;

    exports dev.audioengine.cli.spi;
    // the resident process (--daemon): its client's and server's main classes
    exports dev.audioengine.cli.daemon;
    // the parent command, global options and usage errors the tools' subcommands share, and the task helpers
    // (inputs, model choice, text, voices) the benches reuse
    exports dev.audioengine.cli to
            dev.audioengine.tools;
    exports dev.audioengine.cli.task to
            dev.audioengine.tools;

    opens dev.audioengine.cli to
            info.picocli;
    opens dev.audioengine.cli.task to
            info.picocli;
    opens dev.audioengine.cli.command to
            info.picocli;

    uses dev.audioengine.api.spi.BackendProvider;
    uses dev.audioengine.cli.spi.CliTool;
}
