package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.conformance.BackendReference;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.CaseResult.Status;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.tools.CorruptingBackend.Fault;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The harness notices each kind of broken kernel, and a faithful one passes. */
class ConformanceHarnessTest {
    private static final long SEED = 20261129L;

    private static Backend cpu() {
        return BackendRegistry.load().providers().stream()
                .filter(p -> p.type() == BackendType.CPU)
                .findFirst()
                .orElseThrow()
                .open(0, new BackendConfig(2, java.util.Map.of()));
    }

    /**
     * add (every shape, broadcasting and views) and one F32 matmul: ops the CPU backend has. The
     * NaN/Inf input case is left out: an injected NaN or doubled value can land on a NaN or Inf.
     */
    private static List<ConformanceCase> cases(String op) {
        return op.equals("matmul")
                ? List.of(CaseCatalogue.select("matmul", "f32").get(4))
                : CaseCatalogue.select(op, "f32").stream()
                        .filter(c -> !c.shape().contains("NaN"))
                        .toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"add", "matmul"})
    void aFaithfulBackendPassesAgainstBothReferences(String op) {
        try (Backend b = new CorruptingBackend(cpu(), op, Fault.NONE, "CPU");
                Backend ref = cpu()) {
            for (ConformanceCase c : cases(op)) {
                assertThat(new ConformanceHarness(b, new Float64Reference())
                                .run(c, SEED)
                                .status())
                        .as(c.id() + " vs float64")
                        .isEqualTo(Status.PASS);
                assertThat(new ConformanceHarness(b, BackendReference.borrowing(ref))
                                .run(c, SEED)
                                .status())
                        .as(c.id() + " vs CPU")
                        .isEqualTo(Status.PASS);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Fault.class,
            names = {
                "ONE_WRONG_ELEMENT",
                "SCALED_BY_1_001",
                "ONE_NAN",
                "WRITE_PAST_END",
                "WRITE_BEFORE_START",
                "WRITE_INTO_INPUT",
                "SKIP_KERNEL"
            })
    void everyFaultFailsEveryCase(Fault fault) {
        for (String op : List.of("add", "matmul")) {
            try (Backend b = new CorruptingBackend(cpu(), op, fault, "Fake");
                    Backend ref = cpu()) {
                ConformanceHarness h = new ConformanceHarness(b, BackendReference.borrowing(ref));
                for (ConformanceCase c : cases(op)) {
                    CaseResult r = h.run(c, SEED);
                    assertThat(r.status())
                            .as(fault + " on " + c.id() + ": " + r.message())
                            .isEqualTo(Status.FAIL);
                    String expected = switch (fault) {
                        case WRITE_PAST_END -> "guard byte(s) after";
                        case WRITE_BEFORE_START -> "guard byte(s) before";
                        case WRITE_INTO_INPUT -> "wrote into input";
                        case ONE_NAN, SKIP_KERNEL -> "NaN/Inf disagreement";
                        default -> "exceeds the bound";
                    };
                    assertThat(r.message()).contains(expected);
                }
            }
        }
    }

    @Test
    void aCorruptedNodeIsReportedWithItsNmseAndBound() {
        ConformanceCase c = CaseCatalogue.select("add", "f32").get(2);
        try (Backend b = new CorruptingBackend(cpu(), "add", Fault.SCALED_BY_1_001, "Fake")) {
            CaseResult r = new ConformanceHarness(b, new Float64Reference()).run(c, SEED);
            assertThat(r.nmse()).as("(1.001-1)^2").isBetween(0.9e-6, 1.1e-6);
            assertThat(r.message()).contains("NMSE 1.0").contains("bound 1.0e-07");
        }
    }

    @Test
    void anOpTheBackendRefusesIsUnsupportedNotFailed() {
        try (Backend b = new CorruptingBackend(cpu(), "add", Fault.UNSUPPORTED, "Fake")) {
            CaseResult r = new ConformanceHarness(b, new Float64Reference())
                    .run(CaseCatalogue.select("add", "f32").getFirst(), SEED);
            assertThat(r.status()).isEqualTo(Status.UNSUPPORTED);
            assertThat(r.message()).contains("supportsOp says no");
        }
    }

    @Test
    void aReferenceThatLacksTheOpMakesTheCaseUnsupported() {
        try (Backend b = cpu();
                Backend ref = new CorruptingBackend(cpu(), "add", Fault.UNSUPPORTED, "CPU")) {
            CaseResult r = new ConformanceHarness(b, BackendReference.borrowing(ref))
                    .run(CaseCatalogue.select("add", "f32").getFirst(), SEED);
            assertThat(r.status()).isEqualTo(Status.UNSUPPORTED);
            assertThat(r.message()).contains("reference backend");
        }
    }
}
