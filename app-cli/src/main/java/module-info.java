/**
 * The audioengine command. Backends and model families arrive on the module path at run time, never at compile time:
 * the CLI knows tasks (vad, ...) and finds the families that serve them through the registry.
 */
module dev.audioengine.cli {
    requires dev.audioengine.api;
    requires dev.audioengine.model;
    requires dev.audioengine.audio;
    requires dev.audioengine.bench;
    requires dev.audioengine.conformance;
    requires dev.audioengine.server;
    requires info.picocli;
    requires java.logging;

    opens dev.audioengine.cli to info.picocli;

    uses dev.audioengine.api.spi.BackendProvider;
    uses dev.audioengine.api.spi.KernelCompiler;
}
