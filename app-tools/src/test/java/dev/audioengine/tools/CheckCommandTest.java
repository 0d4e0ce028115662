package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import dev.audioengine.tools.CorruptingBackend.Fault;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The check command's output formats and exit status, on small filtered runs. */
class CheckCommandTest {

    private static CliRun run(BackendRegistry registry, String... args) {
        return CliRun.run(() -> registry, args);
    }

    private static BackendProvider cpuProvider() {
        return BackendRegistry.load().providers().stream()
                .filter(p -> p.type() == BackendType.CPU)
                .findFirst()
                .orElseThrow();
    }

    /** A "CUDA" provider whose backend is the CPU with one op broken. */
    private static BackendProvider brokenGpu(String op, Fault fault) {
        BackendProvider cpu = cpuProvider();
        return new BackendProvider() {
            @Override
            public String registryName() {
                return "CUDA";
            }

            @Override
            public BackendType type() {
                return BackendType.CUDA;
            }

            @Override
            public ProbeResult probe() {
                return cpu.probe();
            }

            @Override
            public Set<Capability> verifiedCapabilities() {
                return Set.of();
            }

            @Override
            public Backend open(int device, BackendConfig config) {
                return new CorruptingBackend(cpu.open(device, config), op, fault, "CUDA");
            }
        };
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasTheDocumentedShape() {
        CliRun r = run(
                BackendRegistry.of(List.of(cpuProvider())),
                "check",
                "--backend",
                "cpu",
                "--op",
                "add",
                "--dtype",
                "f32",
                "--seed",
                "7",
                "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(r.out().strip());
        assertThat(json)
                .containsKeys("backend", "device", "seed", "cases", "passed", "failed", "unsupported", "results");
        assertThat(json.get("backend")).isEqualTo("CPU");
        assertThat(((Number) json.get("seed")).longValue()).isEqualTo(7);
        List<Map<String, Object>> results = (List<Map<String, Object>>) json.get("results");
        assertThat(results).hasSize(num(json, "cases")).isNotEmpty();
        assertThat(num(json, "passed") + num(json, "failed") + num(json, "unsupported"))
                .isEqualTo(results.size());
        for (Map<String, Object> c : results) {
            assertThat(c).containsKeys("op", "dtype", "shape", "status", "nmse", "bound");
            assertThat(c.get("op")).isEqualTo("add");
            assertThat(c.get("dtype")).isEqualTo("f32");
            assertThat(c.get("status")).isIn("pass", "fail", "unsupported");
            assertThat(((Number) c.get("bound")).doubleValue()).isEqualTo(1e-7);
        }
    }

    @Test
    void theSameSeedGivesTheSameNumbers() {
        BackendRegistry reg = BackendRegistry.of(List.of(cpuProvider()));
        CliRun a = run(reg, "check", "--op", "matmul", "--dtype", "q4_0", "--seed", "11", "--csv");
        CliRun b = run(reg, "check", "--op", "matmul", "--dtype", "q4_0", "--seed", "11", "--csv");
        CliRun c = run(reg, "check", "--op", "matmul", "--dtype", "q4_0", "--seed", "12", "--csv");
        assertThat(a.out())
                .startsWith("backend,op,dtype,shape,status,nmse,bound,message")
                .isEqualTo(b.out())
                .isNotEqualTo(c.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBrokenBackendFailsTheRunWithExitStatusOne() {
        BackendRegistry reg = BackendRegistry.of(List.of(cpuProvider(), brokenGpu("add", Fault.SCALED_BY_1_001)));
        CliRun r = run(reg, "check", "--backend", "cuda", "--op", "add", "--seed", "3", "--json");
        assertThat(r.exit()).isEqualTo(1);
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(r.out().strip());
        assertThat(json.get("backend")).isEqualTo("CUDA");
        assertThat((String) json.get("reference")).startsWith("CPU");
        assertThat(num(json, "failed")).isPositive();
        assertThat(r.err()).contains("replay with --seed 3");
    }

    @Test
    @SuppressWarnings("unchecked")
    void allRunsEveryAvailableBackendAndPrintsAnArray() {
        BackendRegistry reg = BackendRegistry.of(List.of(cpuProvider(), brokenGpu("add", Fault.NONE)));
        CliRun r = run(reg, "check", "--backend", "all", "--op", "add", "--seed", "5", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> reports =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(reports).extracting(m -> m.get("backend")).containsExactly("CPU", "CUDA");
    }

    @Test
    @SuppressWarnings("unchecked")
    void underAllABackendThatCannotOpenIsReportedAndTheOthersStillRun() {
        BackendProvider cpu = cpuProvider();
        BackendProvider broken = new BackendProvider() {
            @Override
            public String registryName() {
                return "Vulkan";
            }

            @Override
            public BackendType type() {
                return BackendType.VULKAN;
            }

            @Override
            public ProbeResult probe() {
                return cpu.probe();
            }

            @Override
            public Set<Capability> verifiedCapabilities() {
                return Set.of();
            }

            @Override
            public Backend open(int device, BackendConfig config) {
                throw new dev.audioengine.api.spi.BackendUnavailableException(
                        "vkCreateDevice failed: VK_ERROR_INITIALIZATION_FAILED");
            }
        };
        CliRun r = run(
                BackendRegistry.of(List.of(cpu, broken)),
                "check",
                "--backend",
                "all",
                "--op",
                "add",
                "--seed",
                "5",
                "--json");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("vulkan probed available but could not be opened: vkCreateDevice failed");
        List<Map<String, Object>> reports =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(reports).extracting(m -> m.get("backend")).containsExactly("CPU");
    }

    @Test
    void theTableEndsWithASummaryNamingTheSeed() {
        CliRun r = run(BackendRegistry.of(List.of(cpuProvider())), "check", "--op", "sub", "--seed", "99");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("seed 99").contains("PASS").containsPattern("\\d+ cases, \\d+ passed, 0 failed");
    }

    @Test
    void supportPrintsTheMatrixWithUnavailableBackendsMarked() {
        BackendProvider missing = new BackendProvider() {
            @Override
            public String registryName() {
                return "Vulkan";
            }

            @Override
            public BackendType type() {
                return BackendType.VULKAN;
            }

            @Override
            public ProbeResult probe() {
                return ProbeResult.unavailable("libvulkan.so.1 not found");
            }

            @Override
            public Set<Capability> verifiedCapabilities() {
                return Set.of();
            }

            @Override
            public Backend open(int device, BackendConfig config) {
                throw new AssertionError("never opened");
            }
        };
        CliRun r = run(
                BackendRegistry.of(List.of(cpuProvider(), brokenGpu("add", Fault.UNSUPPORTED), missing)),
                "check",
                "--support");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out())
                .containsPattern("(?m)^add\\s+\\S+\\s+no\\s+unavailable")
                .contains("vulkan: unavailable: libvulkan.so.1 not found");
    }

    /** Issue 16, defect 9: --support --csv printed the table. */
    @Test
    void supportAsCsvIsOneRowPerBackendAndOp() {
        BackendProvider missing = new BackendProvider() {
            @Override
            public String registryName() {
                return "Vulkan";
            }

            @Override
            public BackendType type() {
                return BackendType.VULKAN;
            }

            @Override
            public ProbeResult probe() {
                return ProbeResult.unavailable("libvulkan.so.1 not found, tried a, b");
            }

            @Override
            public Set<Capability> verifiedCapabilities() {
                return Set.of();
            }

            @Override
            public Backend open(int device, BackendConfig config) {
                throw new AssertionError("never opened");
            }
        };
        CliRun r = run(BackendRegistry.of(List.of(cpuProvider(), missing)), "check", "--support", "--csv");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("backend,op,supported,cases,unavailable");
        assertThat(lines).contains("vulkan,,,,\"libvulkan.so.1 not found, tried a, b\"");
        assertThat(lines).anyMatch(l -> l.matches("cpu,add,(\\d+),\\1,"));
        assertThat(lines.stream().filter(l -> l.startsWith("cpu,")).count()).isGreaterThan(10);
    }

    private static int num(Map<String, Object> json, String key) {
        return ((Number) json.get(key)).intValue();
    }

    @Test
    void unknownOpIsAnErrorListingTheOps() {
        CliRun r = run(BackendRegistry.of(List.of(cpuProvider())), "check", "--op", "matmull");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no conformance cases for op 'matmull'").contains("conv1d");
    }
}
