package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import org.junit.jupiter.api.Test;

/** What serve refuses before it builds an engine or pulls a model: usage errors, exit 2. */
class ServeCommandTest {
    @Test
    void anUnknownModelNameIsAUsageErrorListingTheNames() {
        CliRun r = CliRun.run("serve", "--models", "moonshine-tiny,whisper-1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("no installed model is named 'whisper-1'").contains("moonshine-base");
    }

    @Test
    @org.junit.jupiter.api.Timeout(60) // without the check it would serve, open, until stopped
    void anEmptyApiKeyIsAUsageErrorNotAnOpenServer() {
        // --api-key "$KEY" with KEY unset
        CliRun r = CliRun.run("serve", "--api-key", "", "--port", "0", "--models", "silero_vad");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("--api-key is empty");
    }

    @Test
    void aPortInUseIsOneLineAndExit1() throws Exception {
        try (java.net.ServerSocket taken =
                new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            CliRun r = CliRun.run(
                    "--backend",
                    "cpu",
                    "serve",
                    "--port",
                    Integer.toString(taken.getLocalPort()),
                    "--models",
                    "silero_vad");
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err().lines().filter(l -> l.startsWith("error: ")).toList())
                    .containsExactly("error: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                            + ": the port is in use (another server? pick another with "
                            + "--port, or 0 for a free one)");
            assertThat(r.err()).doesNotContain("\tat ").doesNotContain("--log debug");
        }
        CliRun r =
                CliRun.run("--backend", "cpu", "serve", "--host", "192.0.2.1", "--port", "0", "--models", "silero_vad");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .contains("error: cannot listen on 192.0.2.1:0: --host 192.0.2.1 is not an address of this machine")
                .doesNotContain("\tat ");
    }

    @Test
    void outOfRangeOptionsAreUsageErrors() {
        for (String[] args : new String[][] {
            {"--queue", "-1"},
            {"--max-concurrent", "0"},
            {"--port", "70000"},
            {"--max-upload-mb", "0"},
            {"--queue-timeout-s", "-2"},
            {"--models", "silero_vad,silero_vad_v6"},
            {"--header-timeout-s", "0"},
            {"--idle-timeout-s", "-1"},
            {"--max-connections", "0"},
            {"--max-batch", "0"},
            {"--max-batch", "5000"},
            {"--gpu-memory-budget", "lots"},
            {"--gpu-memory-budget", "0"},
            {"--gpu-memory-budget", "-2G"},
            {"--tts-replicas", "0"},
            {"--tts-replicas", "17"}
        }) {
            String[] full = new String[args.length + 1];
            full[0] = "serve";
            System.arraycopy(args, 0, full, 1, args.length);
            CliRun r = CliRun.run(full);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isEqualTo(2);
            assertThat(r.err()).contains(args[0]);
        }
    }

    @Test
    void memoryBudgetsReadAsBinarySizes() {
        assertThat(dev.audioengine.cli.command.ServeCommand.bytes("--gpu-memory-budget", "2G"))
                .isEqualTo(2L << 30);
        assertThat(dev.audioengine.cli.command.ServeCommand.bytes("--gpu-memory-budget", "512m"))
                .isEqualTo(512L << 20);
        assertThat(dev.audioengine.cli.command.ServeCommand.bytes("--gpu-memory-budget", "1.5GiB"))
                .isEqualTo(3L << 29);
        assertThat(dev.audioengine.cli.command.ServeCommand.bytes("--gpu-memory-budget", "1048576"))
                .isEqualTo(1L << 20);
    }
}
