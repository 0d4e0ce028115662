/** The audioengine command. Backends arrive on the module path at run time, never at compile time. */
module dev.audioengine.cli {
    requires dev.audioengine.api;
    requires dev.audioengine.audio;
    requires dev.audioengine.bench;
    requires dev.audioengine.conformance;
    requires dev.audioengine.models;
    requires dev.audioengine.model;
    requires info.picocli;
    requires java.logging;

    opens dev.audioengine.cli to info.picocli;

    uses dev.audioengine.api.spi.BackendProvider;
    uses dev.audioengine.api.spi.KernelCompiler;
}
