package dev.audioengine.tools;

import dev.audioengine.bench.BenchResult;
import dev.audioengine.bench.BenchSettings;
import dev.audioengine.bench.ConvBench;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code audioengine bench conv}: see {@link ConvBench}. */
@Command(
        name = "conv",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "conv1d (k 3 and 7, 256-1024 channels), depthwise conv1d and conv_transpose1d (stride 2, 4, 8) against im2col/col2im + OpenBLAS sgemm.",
            "Interleaved with the peer in one process, median of --runs runs after warm-up, inputs rotated over buffers "
                    + "larger than the last-level cache. Without --threads: at 1 thread and at all processors.",
            ""
        })
final class BenchConvCommand extends PeerBenchCommand {
    @Override
    String title() {
        return "conv";
    }

    @Override
    List<BenchResult> run(BenchSettings settings) {
        return ConvBench.run(settings);
    }
}
