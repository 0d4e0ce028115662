package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.conformance.ReportFormat;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The suite's main test, what {@code audioengine check --backend cpu} runs: every case of the
 * catalogue on the CPU backend against the float64 reference, on fresh inputs. Every case must
 * be supported and pass.
 */
class CpuConformanceTest {
    @Test
    void everyCasePassesOnTheCpu() {
        long seed = Seeds.fresh();
        BackendConfig config = new BackendConfig(2, Map.of());
        try (Backend cpu =
                BackendRegistry.load().select(BackendType.CPU, 0).provider().open(0, config)) {
            ConformanceReport report =
                    new ConformanceHarness(cpu, new Float64Reference()).run(CaseCatalogue.all(), seed, r -> {});
            String notPassing = report.results().stream()
                    .filter(r -> r.status() != CaseResult.Status.PASS)
                    .map(ReportFormat::line)
                    .collect(Collectors.joining("\n"));
            assertThat(report.passed())
                    .as(Seeds.describe(seed) + ": cases that do not pass:\n" + notPassing)
                    .isEqualTo(CaseCatalogue.all().size());
        }
    }
}
