/**
 * The diagnostics of the audioengine command: {@code bench} (per-op timing, model benches, GEMM/conv/quant beside
 * OpenBLAS), {@code check} (conformance of a backend against the reference) and {@code kernels} (ahead-of-time GPU
 * kernel builds). Subcommands the CLI finds through {@link dev.audioengine.cli.spi.CliTool}; a production image
 * leaves this jar, and the bench and conformance modules it pulls, out (scripts/dist --no-tools).
 */
module dev.audioengine.tools {
    requires dev.audioengine.api;
    requires dev.audioengine.model;
    requires dev.audioengine.audio;
    requires dev.audioengine.cli;
    requires dev.audioengine.bench;
    requires dev.audioengine.conformance;
    requires info.picocli;

    opens dev.audioengine.tools to
            info.picocli;

    uses dev.audioengine.api.spi.KernelCompiler;

    provides dev.audioengine.cli.spi.CliTool with
            dev.audioengine.tools.Diagnostics;
}
