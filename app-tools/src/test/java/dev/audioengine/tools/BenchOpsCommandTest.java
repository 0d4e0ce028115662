package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bench ops on one op: the JSON shape, a positive throughput in the op's unit. */
class BenchOpsCommandTest {
    private static BackendRegistry cpuOnly() {
        BackendProvider cpu = BackendRegistry.load().providers().stream()
                .filter(p -> p.type() == BackendType.CPU)
                .findFirst()
                .orElseThrow();
        return BackendRegistry.of(List.of(cpu));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonReportsThroughputPerCase() {
        CliRun r = CliRun.run(BenchOpsCommandTest::cpuOnly, "bench", "ops", "--op", "add", "--threads", "2", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> cols =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(cols)
                .singleElement()
                .satisfies(c -> assertThat(c.get("backend")).isEqualTo("CPU"));
        List<Map<String, Object>> results =
                (List<Map<String, Object>>) cols.getFirst().get("results");
        assertThat(results).isNotEmpty().allSatisfy(x -> {
            assertThat(x).containsKeys("op", "dtype", "shape", "unit", "value", "median_ms", "runs", "note");
            assertThat(x.get("op")).isEqualTo("add");
            assertThat(x.get("unit")).isEqualTo("GB/s");
            assertThat(((Number) x.get("value")).doubleValue()).isPositive();
            assertThat(((Number) x.get("runs")).intValue()).isGreaterThanOrEqualTo(5);
        });
    }

    @Test
    void computeBoundOpsAreReportedInGflops() {
        CliRun r =
                CliRun.run(BenchOpsCommandTest::cpuOnly, "bench", "ops", "--op", "conv_transpose1d", "--threads", "2");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("GFLOP/s").contains("conv_transpose1d").contains("devices: CPU");
    }
}
