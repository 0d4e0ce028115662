package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.bench.OpenBlas;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * bench gemm|quant|conv on their smoke shapes: the JSON shape of every case, and the table. The
 * peer's fields are checked against whether OpenBLAS is installed here, so the test holds on
 * machines with and without it. No timing assertions: only that figures are positive.
 */
class BenchKernelsCommandTest {
    private static final boolean HAVE_BLAS = OpenBlas.find().blas().isPresent();

    private static BackendRegistry cpuOnly() {
        BackendProvider cpu = BackendRegistry.load().providers().stream()
                .filter(p -> p.type() == BackendType.CPU)
                .findFirst()
                .orElseThrow();
        return BackendRegistry.of(List.of(cpu));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gemm", "quant", "conv"})
    @SuppressWarnings("unchecked")
    void jsonHasOneObjectPerCase(String bench) {
        CliRun r = CliRun.run(
                BenchKernelsCommandTest::cpuOnly, "bench", bench, "--smoke", "--runs", "2", "--threads", "1", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> cases =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(cases).as(r.out()).hasSizeGreaterThanOrEqualTo(2).allSatisfy(c -> {
            assertThat(c)
                    .containsKeys(
                            "bench",
                            "backend",
                            "shape",
                            "dtype",
                            "threads",
                            "ours_gflops",
                            "peer",
                            "peer_gflops",
                            "ratio",
                            "runs");
            assertThat(c.get("bench")).isEqualTo(bench);
            assertThat(c.get("backend")).isEqualTo("CPU");
            assertThat((String) c.get("shape")).isNotBlank();
            assertThat(((Number) c.get("threads")).intValue()).isEqualTo(1);
            assertThat(((Number) c.get("runs")).intValue()).isEqualTo(2);
            assertThat(((Number) c.get("ours_gflops")).doubleValue()).isPositive();
            if (HAVE_BLAS) {
                assertThat((String) c.get("peer")).startsWith("OpenBLAS sgemm");
                double ours = ((Number) c.get("ours_gflops")).doubleValue(),
                        peer = ((Number) c.get("peer_gflops")).doubleValue();
                assertThat(peer).isPositive();
                assertThat(((Number) c.get("ratio")).doubleValue())
                        .isCloseTo(ours / peer, org.assertj.core.data.Percentage.withPercentage(0.1));
            } else {
                assertThat((String) c.get("peer")).startsWith("none");
                assertThat(c.get("peer_gflops")).isNull();
                assertThat(c.get("ratio")).isNull();
            }
        });
        if (bench.equals("quant")) {
            assertThat(cases).allSatisfy(c -> {
                assertThat(c).containsKeys("weight_gbps", "stream_gbps", "bandwidth_fraction");
                assertThat(((Number) c.get("stream_gbps")).doubleValue()).isPositive();
            });
            assertThat(cases).extracting(c -> c.get("dtype")).contains("Q8_0", "Q4_0");
        }
    }

    @Test
    void tableNamesThePeerAndTheLoad() {
        CliRun r = CliRun.run(
                BenchKernelsCommandTest::cpuOnly, "bench", "conv", "--smoke", "--runs", "2", "--threads", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("peer: ")
                .contains("load average")
                .contains("ours GFLOP/s")
                .contains("conv_transpose1d");
        if (!HAVE_BLAS) assertThat(r.out()).contains("OpenBLAS not found");
    }

    @Test
    void onlySelectsCasesByShape() {
        CliRun r = CliRun.run(
                BenchKernelsCommandTest::cpuOnly,
                "bench",
                "gemm",
                "--smoke",
                "--runs",
                "1",
                "--threads",
                "1",
                "--only",
                "7x33",
                "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("7x33x16").doesNotContain("1x9x32");
    }

    @Test
    void otherBackendsAreRefusedWithAPointerToBenchOps() {
        CliRun r = CliRun.run(BenchKernelsCommandTest::cpuOnly, "bench", "gemm", "--smoke", "--backend", "cuda");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("bench ops");
    }
}
