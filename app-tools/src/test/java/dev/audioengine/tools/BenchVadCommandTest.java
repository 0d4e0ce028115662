package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bench vad}: its output shape, and --runs checked as a usage error (also by the peer benches). */
class BenchVadCommandTest {

    @Test
    void benchVadJsonHasOneObjectPerMode() {
        CliRun r = CliRun.run(
                "bench", "vad", "--json", "--runs", "1", "--threads", "1", "--audio", "../docs/examples/speech.wav");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        String number = "\\d+(\\.\\d+)?";
        for (int i = 0; i < 2; i++) {
            assertThat(lines.get(i))
                    .matches("\\{\"bench\":\"vad\",\"backend\":\"CPU\",\"mode\":\"" + (i == 0 ? "streaming" : "offline")
                            + "\",\"threads\":1,\"us_per_chunk\":" + number + ",\"realtime_factor\":" + number + "}");
        }
    }

    @Test
    void runsBelowOneIsAUsageError() {
        CliRun vad = CliRun.run("bench", "vad", "--runs", "0");
        assertThat(vad.exit()).as(vad.err()).isEqualTo(2);
        assertThat(vad.err()).contains("--runs must be >= 1");
        CliRun gemm = CliRun.run("bench", "gemm", "--runs", "0");
        assertThat(gemm.exit()).as(gemm.err()).isEqualTo(2);
        assertThat(gemm.err()).contains("--runs must be >= 1, got 0");
    }
}
