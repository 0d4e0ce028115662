/**
 * Benchmarks and their peers, kept out of the production jars: per-op timing over the bench cases,
 * GEMM/conv/quant benches beside OpenBLAS (FFM), and CudaBench. The CUDA backend and gpu-common are
 * optional (requires static): only CudaBench needs them, run with --add-modules dev.audioengine.backend.cuda.
 */
module dev.audioengine.bench {
    requires transitive dev.audioengine.api;
    requires transitive dev.audioengine.conformance;
    requires jdk.incubator.vector; // the streaming-read bound of the quant bench
    requires java.management; // OpBenchmark waits for the JIT to go quiet
    requires static dev.audioengine.backend.cuda;
    requires static dev.audioengine.gpu;

    exports dev.audioengine.bench;
}
