package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.model.FamilyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Main builds the subcommands (picocli's reflective model of each, a cost every one-shot job paid) only when the
 * arguments may need them; a command line without them must behave exactly as the one with them.
 */
class SubcommandsOnDemandTest {
    private static CommandLine forArgs(String... args) {
        return Main.commandLine(new AudioEngineCommand(), args);
    }

    @Test
    void aTaskGetsNoSubcommands() {
        assertThat(forArgs("--task", "vad", "--audio", "x.wav", "--threads", "1")
                        .getSubcommands())
                .isEmpty();
        assertThat(forArgs("--backend", "cpu", "--task", "asr", "--audio=x.wav", "--json")
                        .getSubcommands())
                .isEmpty();
        assertThat(forArgs("--version").getSubcommands()).isEmpty();
    }

    @Test
    void whateverMayNeedThemGetsThemAll() {
        List<String> all = List.copyOf(
                Main.commandLine(new AudioEngineCommand()).getSubcommands().keySet());
        assertThat(all).contains("backends", "models", "voices", "serve", "bench", "check", "kernels");
        for (String[] args : List.of(
                new String[0], // the usage, which lists them
                new String[] {"serve", "--models", "silero_vad"},
                new String[] {"--backend", "cpu", "models", "list"},
                new String[] {"bench", "asr"},
                new String[] {"--help"},
                new String[] {"-h"},
                new String[] {"--task", "tts", "--text", "serve"}, // a value equal to a name: built, harmless
                new String[] {"srve"}, // parses only with them: picocli's "Did you mean" needs them
                new String[] {"--threads", "many", "--task", "vad"}))
            assertThat(List.copyOf(forArgs(args).getSubcommands().keySet()))
                    .as(String.join(" ", args))
                    .isEqualTo(all);
    }

    /** Exit status and both streams, with and without the subcommands, for arguments that fail in different ways. */
    @Test
    void withOrWithoutThemTheAnswerIsTheSame() {
        for (String[] args : List.of(
                new String[] {"--version"},
                new String[] {"srve"},
                new String[] {"--task", "nothing"},
                new String[] {"--threads", "many", "--task", "vad"},
                new String[] {"--task", "vad"},
                new String[] {"--task", "vad", "--audio", "/no/such/file.wav"},
                new String[] {"--backend", "nosuch", "--task", "vad", "--audio", "/no/such/file.wav"},
                new String[] {"--json"},
                new String[] {"--log", "loud", "--task", "vad"})) {
            CliRun lazy = CliRun.run(true, BackendRegistry::load, FamilyRegistry::load, args);
            CliRun eager = CliRun.run(false, BackendRegistry::load, FamilyRegistry::load, args);
            String what = String.join(" ", args);
            assertThat(lazy.exit()).as(what).isEqualTo(eager.exit());
            assertThat(lazy.out()).as(what).isEqualTo(eager.out());
            assertThat(lazy.err()).as(what).isEqualTo(eager.err());
        }
        assertThat(CliRun.run("srve").err()).contains("serve");
    }
}
