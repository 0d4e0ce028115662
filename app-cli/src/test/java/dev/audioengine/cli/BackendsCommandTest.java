package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import dev.audioengine.cli.testkit.RootLoggerGuard;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The backends subcommand in-process, with the backends this module's test class path carries (all four). */
@ExtendWith(RootLoggerGuard.class)
class BackendsCommandTest {
    private static final List<String> BACKEND_KEYS =
            List.of("name", "type", "registryName", "available", "reason", "devices", "capabilities");
    private static final List<String> DEVICE_KEYS = List.of("index", "name", "arch", "memoryTotal", "memoryFree");

    private static final BackendRegistry REGISTRY = BackendRegistry.load();

    private static ProbeResult probeOf(BackendType type) {
        BackendProvider p = REGISTRY.providers().stream()
                .filter(x -> x.type() == type)
                .findFirst()
                .orElseThrow();
        return REGISTRY.probe(p);
    }

    private static boolean anyGpuAvailable() {
        return REGISTRY.providers().stream()
                .anyMatch(p -> p.type() != BackendType.CPU && REGISTRY.probe(p).available());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> parseArray(String json) {
        return (List<Map<String, Object>>) MiniJson.parse(json.strip());
    }

    @Test
    void jsonHasExactlyTheDocumentedKeysAndTheCpuWithOneDevice() {
        CliRun r = CliRun.run("backends", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
        List<Map<String, Object>> backends = parseArray(r.out());

        assertThat(backends).extracting(b -> b.get("name")).containsExactly("cpu", "cuda", "hip", "vulkan");
        for (Map<String, Object> b : backends) {
            assertThat(b.keySet()).as("keys of %s", b.get("name")).containsExactlyElementsOf(BACKEND_KEYS);
            assertThat(b.get("available")).isInstanceOf(Boolean.class);
            List<?> devices = (List<?>) b.get("devices");
            // An unavailable backend may still list the devices it saw (e.g. Vulkan without kernels yet).
            if (b.get("available").equals(false))
                assertThat((String) b.get("reason"))
                        .as("an unavailable backend says why")
                        .isNotBlank();
            for (Object d : devices)
                assertThat(((Map<?, ?>) d).keySet()).map(Object::toString).containsExactlyElementsOf(DEVICE_KEYS);
            for (Object c : (List<?>) b.get("capabilities")) Capability.valueOf((String) c);
        }

        Map<String, Object> cpu = backends.getFirst();
        assertThat(cpu)
                .containsEntry("type", "CPU")
                .containsEntry("registryName", "CPU")
                .containsEntry("available", true);
        List<?> cpuDevices = (List<?>) cpu.get("devices");
        assertThat(cpuDevices).hasSize(1);
        Map<?, ?> dev = (Map<?, ?>) cpuDevices.getFirst();
        assertThat(dev.get("index")).isEqualTo(0L);
        assertThat((String) dev.get("name")).isNotBlank();
        assertThat((Long) dev.get("memoryTotal")).isPositive();
        assertThat((List<?>) cpu.get("capabilities")).isNotEmpty();

        Map<String, Object> hip = backends.get(2);
        assertThat(hip).containsEntry("type", "HIP").containsEntry("registryName", "ROCm");
    }

    @Test
    void tableListsEveryBackendWithDevicesReasonsAndCapabilities() {
        CliRun r = CliRun.run("backends");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("NAME", "REGISTRY", "AVAILABLE", "DEVICES", "REASON", "capabilities:");
        for (BackendProvider p : REGISTRY.providers()) {
            ProbeResult probe = REGISTRY.probe(p);
            assertThat(r.out())
                    .containsPattern("(?m)^  " + p.type().cliName() + " +" + p.registryName() + " +"
                            + (probe.available() ? "yes" : "no") + " +"
                            + probe.devices().size());
            if (!probe.available()) assertThat(r.out()).contains(probe.reason());
        }
        assertThat(r.out()).doesNotContain("* ").doesNotContain("selected:");
    }

    @Test
    void unknownBackendIsAUsageErrorListingTheValidNames() {
        for (String[] args : List.of(
                new String[] {"--backend", "opencl", "backends"}, new String[] {"backends", "--backend=opencl"})) {
            CliRun r = CliRun.run(args);
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.err())
                    .contains("unknown backend 'opencl'")
                    .contains("cpu, cuda, hip, rocm, vulkan, metal, best");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void unavailableBackendExitsOneWithEveryBackendAndWhy() {
        assumeFalse(probeOf(BackendType.CUDA).available(), "this machine has a usable CUDA device");
        CliRun r = CliRun.run("--backend", "cuda", "backends");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("error: backend 'cuda' (CUDA) is unavailable: "
                        + probeOf(BackendType.CUDA).reason());
        for (BackendProvider p : REGISTRY.providers()) {
            ProbeResult probe = REGISTRY.probe(p);
            String line = "  " + p.type().cliName() + " (" + p.registryName() + "): ";
            assertThat(r.err())
                    .contains(
                            probe.available()
                                    ? line + "available, " + probe.devices().size() + " device(s)"
                                    : line + "unavailable: " + probe.reason());
        }
        assertThat(r.err()).as("no stack trace for a user error").doesNotContain("\tat ");
        assertThat(r.out())
                .as("the listing still prints, the refused backend marked")
                .containsPattern("(?m)^! cuda +CUDA");
    }

    @Test
    void globalOptionsWorkBeforeAndAfterTheSubcommandNameAndRocmIsHip() {
        assumeFalse(probeOf(BackendType.HIP).available(), "this machine has a usable ROCm device");
        CliRun before = CliRun.run("--backend", "rocm", "backends");
        CliRun after = CliRun.run("backends", "--backend", "rocm");
        for (CliRun r : List.of(before, after)) {
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).startsWith("error: backend 'hip' (ROCm) is unavailable");
            assertThat(r.out()).containsPattern("(?m)^! hip +ROCm");
        }
        assertThat(before.err()).isEqualTo(after.err());
    }

    @Test
    void debugLogLevelAddsTheStackTrace() {
        assumeFalse(probeOf(BackendType.CUDA).available(), "this machine has a usable CUDA device");
        CliRun r = CliRun.run("--log", "debug", "--backend", "cuda", "backends", "--json");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .contains("BackendUnavailableException")
                .contains("\tat dev.audioengine.api.registry.BackendRegistry.select");
        assertThat(parseArray(r.out())).hasSize(REGISTRY.providers().size());
    }

    @Test
    void explicitCpuAndBestAreMarkedAndNamed() {
        CliRun cpu = CliRun.run("backends", "--backend", "CPU");
        assertThat(cpu.exit()).as(cpu.toString()).isZero();
        assertThat(cpu.out()).containsPattern("(?m)^\\* cpu +CPU").contains("selected: cpu (CPU) device 0 (");

        assumeFalse(anyGpuAvailable(), "a GPU is available, so best would not pick the CPU");
        CliRun best = CliRun.run("--backend", "best", "backends");
        assertThat(best.exit()).as(best.toString()).isZero();
        assertThat(best.out()).containsPattern("(?m)^\\* cpu +CPU").contains("best: picked CPU device 0");
    }

    @Test
    void aDeviceThatDoesNotExistExitsOne() {
        CliRun r = CliRun.run("backends", "--device", "3");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("backend 'cpu' has 1 device(s); --device 3 does not exist");
    }

    @Test
    void topLevelWithoutSubcommandPrintsUsageAndHelpDescribesEveryOption() {
        CliRun bare = CliRun.run();
        assertThat(bare.exit()).isZero();
        assertThat(bare.out()).startsWith("Usage: audioengine");
        CliRun help = CliRun.run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out())
                .contains(
                        "--backend=NAME",
                        "--device=N",
                        "--threads=N",
                        "--capability=",
                        "--log=LEVEL",
                        "--fallback=cpu|fail",
                        "--option=KEY=VALUE",
                        "--version",
                        "backends");
        CliRun subHelp = CliRun.run("backends", "--help");
        assertThat(subHelp.out()).contains("--json", "--backend=NAME");
    }

    @Test
    void versionNamesTheProjectVersionAndJava() throws Exception {
        CliRun r = CliRun.run("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .containsPattern("^audioengine \\d+\\.\\d+\\.\\d+")
                .doesNotContain("${")
                .contains("Java " + Runtime.version());
        // the version the build filtered in is the project's, the one the POMs (and the release) carry
        String version = java.nio.file.Files.readString(Dist.repoRoot().resolve("pom.xml"))
                .replaceAll("(?s).*?<artifactId>audioengine-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        assertThat(r.out()).startsWith("audioengine " + version + "\n");
    }

    @Test
    void unknownSubcommandOrOptionIsAUsageError() {
        assertThat(CliRun.run("backendz").exit()).isEqualTo(2);
        CliRun r = CliRun.run("backends", "--jsn");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--jsn").contains("audioengine backends --help");
    }
}
