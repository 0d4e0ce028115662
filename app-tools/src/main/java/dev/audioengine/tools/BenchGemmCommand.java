package dev.audioengine.tools;

import dev.audioengine.bench.BenchResult;
import dev.audioengine.bench.BenchSettings;
import dev.audioengine.bench.GemmBench;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code audioengine bench gemm}: see {@link GemmBench}. */
@Command(
        name = "gemm",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "F32 matmul at 512³, 1024³, 2048³ and audio shapes (1500x384x384, 1500x1536x384, 1x4096x4096 mat-vec) against OpenBLAS cblas_sgemm.",
            "Interleaved with the peer in one process, median of --runs runs after warm-up, inputs rotated over buffers "
                    + "larger than the last-level cache. Without --threads: at 1 thread and at all processors.",
            ""
        })
final class BenchGemmCommand extends PeerBenchCommand {
    @Override
    String title() {
        return "gemm";
    }

    @Override
    List<BenchResult> run(BenchSettings settings) {
        return GemmBench.run(settings);
    }
}
