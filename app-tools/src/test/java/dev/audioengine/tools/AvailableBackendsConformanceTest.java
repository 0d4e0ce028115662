package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.BackendReference;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.ReportFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code audioengine check --backend all} as a test: every non-CPU backend available where the
 * tests run (lavapipe's Vulkan in CI once its kernels land, a GPU on a GPU machine) runs the whole
 * catalogue against the CPU backend. Unsupported cases are allowed here; failures are not.
 * Skipped (not passed) where no such backend is available.
 */
class AvailableBackendsConformanceTest {
    @Test
    void everyAvailableNonCpuBackendFailsNoCase() {
        BackendRegistry registry = BackendRegistry.load();
        List<BackendProvider> gpus = new ArrayList<>();
        for (BackendProvider p : registry.providers()) {
            ProbeResult r = registry.probe(p);
            if (p.type() != BackendType.CPU && r.available() && !r.devices().isEmpty()) gpus.add(p);
        }
        Assumptions.assumeFalse(gpus.isEmpty(), "no non-CPU backend is available here:\n" + registry.describe());
        long seed = Seeds.fresh();
        BackendConfig config = new BackendConfig(2, Map.of());
        List<String> failures = new ArrayList<>();
        for (BackendProvider p : gpus) {
            try (Backend b = p.open(0, config);
                    BackendReference cpu = BackendReference.owning(
                            registry.select(BackendType.CPU, 0).provider().open(0, config))) {
                ConformanceReport report = new ConformanceHarness(b, cpu).run(CaseCatalogue.all(), seed, r -> {});
                failures.addAll(report.failures().stream()
                        .map(f -> p.registryName() + ": " + ReportFormat.line(f))
                        .toList());
            }
        }
        assertThat(failures)
                .as(Seeds.describe(seed) + "\n" + failures.stream().collect(Collectors.joining("\n")))
                .isEmpty();
    }
}
