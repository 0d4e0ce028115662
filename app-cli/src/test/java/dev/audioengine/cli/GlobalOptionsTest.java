package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.RootLoggerGuard;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Parsing, validation and inheritance of the global options, and the engine builder made from them. */
@ExtendWith(RootLoggerGuard.class)
class GlobalOptionsTest {

    private static GlobalOptions parse(String... args) {
        AudioEngineCommand top = new AudioEngineCommand();
        Main.commandLine(top).parseArgs(args);
        return top.globals();
    }

    @Test
    void defaults() {
        GlobalOptions g = parse();
        assertThat(g.backend()).isEqualTo(BackendType.CPU);
        assertThat(g.backendGiven()).isFalse();
        assertThat(g.device()).isZero();
        assertThat(g.threads()).isZero();
        assertThat(g.capabilities()).isEmpty();
        assertThat(g.log()).isEqualTo(LogLevel.WARN);
        assertThat(g.fallback()).isEqualTo(FallbackPolicy.CPU);
        assertThat(g.options()).isEmpty();
    }

    @Test
    void optionsOnEitherSideOfTheSubcommandLandInTheTopLevelInstance() {
        GlobalOptions g = parse(
                "--backend",
                "ROCm",
                "--threads",
                "3",
                "--capability",
                "-FUSED_ATTENTION,+BF16_WEIGHTS",
                "--option",
                "cuda.graphs=on",
                "backends",
                "--device",
                "1",
                "--capability=GRAPH_CAPTURE",
                "--log",
                "info",
                "--fallback",
                "FAIL",
                "--option",
                "cuda.graphs=off",
                "--option=hip.arch=gfx1100");
        assertThat(g.backend()).isEqualTo(BackendType.HIP);
        assertThat(g.backendGiven()).isTrue();
        assertThat(g.threads()).isEqualTo(3);
        assertThat(g.device()).isEqualTo(1);
        assertThat(g.capabilities()).containsExactly("-FUSED_ATTENTION", "+BF16_WEIGHTS", "GRAPH_CAPTURE");
        assertThat(g.log()).isEqualTo(LogLevel.INFO);
        assertThat(g.fallback()).isEqualTo(FallbackPolicy.FAIL);
        assertThat(g.options()).isEqualTo(Map.of("cuda.graphs", "off", "hip.arch", "gfx1100"));
    }

    @Test
    void invalidValuesAreUsageErrorsThatSayWhatIsValid() {
        record Case(List<String> args, String message) {}
        List<Case> cases = List.of(
                new Case(
                        List.of("--capability", "-FAST_EVERYTHING", "backends"),
                        "unknown capability 'FAST_EVERYTHING'"),
                new Case(
                        List.of("--capability", "+FUSED_ATTENTION", "--capability", "-FUSED_ATTENTION", "backends"),
                        "FUSED_ATTENTION switched both on and off"),
                new Case(List.of("--threads", "-1", "backends"), "--threads must be >= 0"),
                new Case(List.of("backends", "--device", "-2"), "--device must be >= 0"),
                new Case(List.of("backends", "--device", "0,1,0"), "--device names a device twice"),
                new Case(
                        List.of(
                                "--device",
                                "0,1",
                                "--task",
                                "vad",
                                "--audio",
                                "/usr/share/pocketsphinx/test/data/cards/001.wav"),
                        "spread over several devices"),
                new Case(List.of("--fallback", "gpu", "backends"), "valid: cpu, fail"),
                new Case(List.of("--log", "verbose", "backends"), "valid: error, warn, info, debug"),
                new Case(List.of("--option", "novalue", "backends"), "KEY=VALUE"),
                new Case(List.of("--threads", "many", "backends"), "--threads"),
                new Case(List.of("backends", "--capability"), "Missing value for option '--capability'"),
                new Case(List.of("backends", "--option"), "Missing value for option '--option'"));
        for (Case c : cases) {
            CliRun r = CliRun.run(c.args().toArray(String[]::new));
            assertThat(r.exit()).as("%s\n%s", c.args(), r).isEqualTo(2);
            assertThat(r.err()).as("%s", c.args()).contains(c.message());
            assertThat(r.out())
                    .as("%s: nothing runs after a usage error", c.args())
                    .isEmpty();
        }
    }

    @Test
    void logLevelReachesJavaUtilLogging() {
        CliRun.run("--log", "debug");
        assertThat(Logger.getLogger("").getLevel()).isEqualTo(Level.FINE);
        assertThat(System.getLogger("dev.audioengine.registry").isLoggable(System.Logger.Level.DEBUG))
                .isTrue();
        CliRun.run("--log", "error");
        assertThat(Logger.getLogger("").getLevel()).isEqualTo(Level.SEVERE);
        assertThat(System.getLogger("dev.audioengine.registry").isLoggable(System.Logger.Level.WARNING))
                .isFalse();
    }

    @Test
    void engineBuilderCarriesBackendDeviceAndCapabilitySwitches() {
        AudioEngineCommand top = new AudioEngineCommand();
        Main.commandLine(top)
                .parseArgs("--backend", "cpu", "--threads", "1", "--capability", "-FUSED_ATTENTION,+GRAPH_CAPTURE");
        try (AudioEngine engine = top.engineBuilder().build()) {
            assertThat(engine.backend().registryName()).isEqualTo("CPU");
            assertThat(engine.device().index()).isZero();
            assertThat(engine.overrides().off()).containsExactly(Capability.FUSED_ATTENTION);
            assertThat(engine.overrides().on()).containsExactly(Capability.GRAPH_CAPTURE);
            assertThat(engine.effectiveCapabilities(Set.of(Capability.FUSED_ATTENTION, Capability.GRAPH_CAPTURE)))
                    .containsExactly(Capability.GRAPH_CAPTURE);
        }
    }

    /** Issue 16, defect 9: an option key the backend does not read was accepted silently. */
    @Test
    void anOptionKeyTheBackendDoesNotReadIsRefusedWithTheKeysItReads() {
        AudioEngineCommand top = new AudioEngineCommand();
        Main.commandLine(top).parseArgs("--backend", "cpu", "--option", "cpu.unused=1");
        assertThatThrownBy(() -> top.engineBuilder().build())
                .isInstanceOf(dev.audioengine.api.spi.UnknownOptionException.class)
                .hasMessage(
                        "unknown option cpu.unused for the CPU backend; its options: cpu.op-threads, cpu.weight-cache-mb");
    }

    @Test
    void engineBuilderRefusesAnUnservableRequestWithTheRegistryMessage() {
        AudioEngineCommand top = new AudioEngineCommand();
        Main.commandLine(top).parseArgs("--device", "7");
        assertThatThrownBy(() -> top.engineBuilder().build())
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("--device 7 does not exist")
                .hasMessageContaining("cpu (CPU): available");
    }
}
