package dev.audioengine.tools;

import dev.audioengine.bench.BenchResult;
import dev.audioengine.bench.BenchSettings;
import dev.audioengine.bench.QuantBench;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code audioengine bench quant}: see {@link QuantBench}. */
@Command(
        name = "quant",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 and the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K weight matmul (mat-vec 1x4096x4096 and 1500x1536x384, the latter not for the k-quants: K is not whole 256-value super-blocks) against the same product in F32 on OpenBLAS, with GB/s of weight read and the streaming-read bound of this machine measured in the same run.",
            "Interleaved with the peer in one process, median of --runs runs after warm-up, inputs rotated over buffers "
                    + "larger than the last-level cache. Without --threads: at 1 thread and at all processors.",
            ""
        })
final class BenchQuantCommand extends PeerBenchCommand {
    @Override
    String title() {
        return "quant";
    }

    @Override
    List<BenchResult> run(BenchSettings settings) {
        return QuantBench.run(settings);
    }
}
