package dev.audioengine.backend.vulkan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.CapabilityEvidence;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Float64Reference;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every conformance case the Vulkan backend says it supports, run on the first Vulkan device
 * (lavapipe in CI) through the SPI with guard regions, against the float64 reference on fresh
 * random inputs: random values, odd sizes, broadcasting and strided views come from the catalogue.
 */
class VulkanConformanceTest {

    private static ConformanceReport runAndCheck(Map<String, String> options, List<ConformanceCase> cases) {
        long seed = Seeds.fresh();
        try (VulkanBackend backend = VulkanTestDevice.open(options);
                Float64Reference reference = new Float64Reference()) {
            ConformanceReport report = new ConformanceHarness(backend, reference).run(cases, seed, r -> {});
            String failures = report.failures().stream()
                    .map(r -> r.testCase().id() + ": " + r.message())
                    .collect(Collectors.joining("\n  "));
            Map<String, Long> unsupportedByOp = report.results().stream()
                    .filter(r -> r.status() == CaseResult.Status.UNSUPPORTED)
                    .collect(Collectors.groupingBy(CaseResult::op, java.util.TreeMap::new, Collectors.counting()));
            System.out.printf(
                    "Vulkan (%s, validation %s, subgroup arithmetic %s) %s: %d cases, %d passed, %d failed, %d unsupported %s%n",
                    backend.device().name(),
                    backend.validationEnabled() ? "on" : "off",
                    backend.context().limits.subgroupArithmetic() ? "used" : "not used",
                    options,
                    cases.size(),
                    report.passed(),
                    report.failed(),
                    report.unsupported(),
                    unsupportedByOp);
            assertThat(report.failed())
                    .as("failures with " + Seeds.describe(seed) + ":\n  " + failures)
                    .isZero();
            assertThat(report.passed()).as("native cases").isPositive();
            assertThat(backend.validationMessages())
                    .as("Khronos validation layer messages")
                    .isEmpty();
            return report;
        }
    }

    @Test
    void everySupportedCasePassesAgainstFloat64() {
        ConformanceReport report = runAndCheck(Map.of(), CaseCatalogue.all());
        assertThat(CapabilityEvidence.unbacked(VulkanBackendProvider.VERIFIED, report))
                .as("declared capabilities without passing evidence")
                .isEmpty();
    }

    @Test
    void theSharedMemoryReductionsPassWithoutSubgroupOperations() {
        List<ConformanceCase> rows = CaseCatalogue.all().stream()
                .filter(c -> List.of("sum", "mean", "max", "argmax", "softmax", "layer_norm", "rms_norm", "group_norm")
                        .contains(c.op()))
                .toList();
        runAndCheck(Map.of("vulkan.subgroups", "off"), rows);
    }

    @Test
    void theStagingPathGivesTheSameResults() {
        // discrete GPUs keep tensors in memory the host cannot map: exercise that path on lavapipe too
        List<ConformanceCase> sample = CaseCatalogue.all().stream()
                .filter(c -> c.op().equals("add")
                        || c.op().equals("matmul")
                        || c.op().equals("concat")
                        || c.op().equals("cast"))
                .toList();
        runAndCheck(Map.of("vulkan.staging", "always"), sample);
    }
}
