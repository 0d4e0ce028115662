package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import org.junit.jupiter.api.Test;

/**
 * The CLI without the tools jar, as a production image has it (app-cli's tests run without app-tools on the class
 * path): the diagnostics are usage errors that say which jar brings them, and the help does not offer them.
 */
class ToolCommandsTest {

    @Test
    void eachDiagnosticSaysItsJarIsNotInstalled() {
        for (String[] args : new String[][] {
            {"bench"},
            {"bench", "ops", "--backend", "cpu"},
            {"bench", "gemm", "--runs", "0"},
            {"check", "--op", "add"},
            {"kernels", "compile", "--backend", "hip", "--arch", "gfx1030"}
        }) {
            CliRun r = CliRun.run(args);
            assertThat(r.exit()).as(r.toString()).isEqualTo(ErrorReporter.EXIT_USAGE);
            assertThat(r.err())
                    .as(r.toString())
                    .contains(
                            "'" + args[0] + "' is a diagnostic of the tools jar (audioengine-tools.jar",
                            "leaves out",
                            "scripts/dist without --no-tools");
        }
    }

    @Test
    void theHelpListsOnlyWhatIsInstalled() {
        CliRun r = CliRun.run("--help");
        assertThat(r.exit()).as(r.toString()).isZero();
        String commands = r.out().substring(r.out().indexOf("\nCommands:"));
        assertThat(commands.lines()
                        .filter(l -> l.matches("  [a-z]+ .*"))
                        .map(l -> l.strip().split(" ")[0])
                        .toList())
                .containsExactly("backends", "models", "voices", "serve");
    }
}
