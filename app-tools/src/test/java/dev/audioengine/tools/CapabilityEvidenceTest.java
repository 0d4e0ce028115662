package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.BackendReference;
import dev.audioengine.conformance.CapabilityEvidence;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.conformance.Reference;
import dev.audioengine.tools.CorruptingBackend.Fault;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Capabilities are declared only with evidence: for every backend available here (in CI, the
 * CPU), each capability it declares must have conformance cases, and all of them must pass on it.
 */
class CapabilityEvidenceTest {
    private static final BackendConfig CONFIG = new BackendConfig(2, Map.of());

    @Test
    void everyAvailableBackendEarnsEveryCapabilityItDeclares() {
        long seed = Seeds.fresh();
        BackendRegistry registry = BackendRegistry.load();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (BackendProvider p : registry.providers()) {
            ProbeResult probe = registry.probe(p);
            if (!probe.available() || probe.devices().isEmpty()) continue;
            try (Backend b = p.open(0, CONFIG);
                    Reference ref = referenceFor(p, registry)) {
                Set<ConformanceCase> evidence = new LinkedHashSet<>();
                for (Capability c : b.verifiedCapabilities()) evidence.addAll(CapabilityEvidence.cases(c));
                ConformanceReport report = new ConformanceHarness(b, ref).run(List.copyOf(evidence), seed, r -> {});
                problems.addAll(CapabilityEvidence.unbacked(b.verifiedCapabilities(), report));
                checked++;
            }
        }
        assertThat(checked).as("backends checked").isPositive();
        assertThat(problems).as(Seeds.describe(seed)).isEmpty();
    }

    private static Reference referenceFor(BackendProvider p, BackendRegistry registry) {
        if (p.type() == BackendType.CPU) return new Float64Reference();
        return BackendReference.owning(
                registry.select(BackendType.CPU, 0).provider().open(0, CONFIG));
    }

    @Test
    void capabilitiesWithoutCasesCannotBeDeclared() {
        assertThat(CapabilityEvidence.cases(Capability.GRAPH_CAPTURE)).isEmpty();
        assertThat(CapabilityEvidence.cases(Capability.TORCH_COMPATIBLE_RANDOM)).isEmpty();
        ConformanceReport empty = new ConformanceReport("X", "dev", "ref", 1, List.of());
        assertThat(CapabilityEvidence.unbacked(Set.of(Capability.GRAPH_CAPTURE), empty))
                .singleElement()
                .asString()
                .contains("no conformance cases");
    }

    @Test
    void everyOtherCapabilityHasCasesOfTheRightKind() {
        for (Capability c :
                EnumSet.complementOf(EnumSet.of(Capability.GRAPH_CAPTURE, Capability.TORCH_COMPATIBLE_RANDOM))) {
            assertThat(CapabilityEvidence.cases(c)).as(c.name()).isNotEmpty();
        }
        assertThat(CapabilityEvidence.cases(Capability.BF16_WEIGHTS))
                .allSatisfy(k -> assertThat(k.node().input(1).dtype().name()).isEqualTo("BF16"));
        assertThat(CapabilityEvidence.cases(Capability.DEPTHWISE_CONV1D_FAST))
                .allSatisfy(k -> assertThat(k.shape()).startsWith("depthwise"));
        assertThat(CapabilityEvidence.cases(Capability.FUSED_ATTENTION))
                .anySatisfy(k -> assertThat(k.hasAlternativeReference()).isTrue());
    }

    @Test
    void aDeclaredCapabilityWhoseCasesFailOrAreUnsupportedIsRejected() {
        long seed = Seeds.fresh();
        try (Backend cpu = new CorruptingBackend(open(), "conv_transpose1d", Fault.ONE_WRONG_ELEMENT, "CPU");
                Backend refusing = new CorruptingBackend(open(), "istft", Fault.UNSUPPORTED, "CPU")) {
            Set<Capability> declared = Set.of(Capability.CONV_TRANSPOSE1D_COL2IM);
            ConformanceReport broken = new ConformanceHarness(cpu, new Float64Reference())
                    .run(CapabilityEvidence.cases(Capability.CONV_TRANSPOSE1D_COL2IM), seed, r -> {});
            assertThat(CapabilityEvidence.unbacked(declared, broken))
                    .as(Seeds.describe(seed))
                    .isNotEmpty()
                    .allSatisfy(s -> assertThat(s).contains("is fail"));
            ConformanceReport unsupported = new ConformanceHarness(refusing, new Float64Reference())
                    .run(CapabilityEvidence.cases(Capability.DEVICE_ISTFT), seed, r -> {});
            assertThat(unsupported.results())
                    .allSatisfy(r -> assertThat(r.status()).isEqualTo(CaseResult.Status.UNSUPPORTED));
            assertThat(CapabilityEvidence.unbacked(Set.of(Capability.DEVICE_ISTFT), unsupported))
                    .isNotEmpty()
                    .allSatisfy(s -> assertThat(s).contains("is unsupported"));
        }
    }

    private static Backend open() {
        return BackendRegistry.load().select(BackendType.CPU, 0).provider().open(0, CONFIG);
    }
}
