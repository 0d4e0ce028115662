package dev.audioengine.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What serve refuses before it builds an engine or pulls a model: usage errors, exit 2. */
class ServeCommandTest {
    @Test
    void anUnknownModelNameIsAUsageErrorListingTheNames() {
        CliRun r = CliRun.run("serve", "--models", "moonshine-tiny,whisper-1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("no installed model is named 'whisper-1'").contains("moonshine-base");
    }

    @Test
    void outOfRangeOptionsAreUsageErrors() {
        for (String[] args : new String[][] {{"--queue", "-1"}, {"--max-concurrent", "0"}, {"--port", "70000"}, {"--max-upload-mb", "0"},
                {"--queue-timeout-s", "-2"}, {"--models", "silero_vad,silero_vad_v6"}, {"--header-timeout-s", "0"}, {"--idle-timeout-s", "-1"},
                {"--max-connections", "0"}}) {
            String[] full = new String[args.length + 1];
            full[0] = "serve";
            System.arraycopy(args, 0, full, 1, args.length);
            CliRun r = CliRun.run(full);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isEqualTo(2);
            assertThat(r.err()).contains(args[0]);
        }
    }
}
