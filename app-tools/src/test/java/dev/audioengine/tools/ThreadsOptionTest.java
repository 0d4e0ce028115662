package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.testkit.CliRun;
import org.junit.jupiter.api.Test;

/**
 * --threads end to end: a count beyond the processors runs (clamped by the CPU backend, which
 * warns on the log) instead of failing with "error: null" (100000 reached ForkJoinPool, whose
 * exception has no message); a negative count is a usage error.
 */
class ThreadsOptionTest {
    @Test
    void aHugeThreadCountIsClampedAndRuns() {
        CliRun r = CliRun.run(
                "--threads", "100000", "check", "--backend", "cpu", "--op", "add", "--dtype", "f32", "--seed", "3");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).as(r.toString()).doesNotContain("error");
        assertThat(r.out()).contains("0 failed");
    }

    @Test
    void aNegativeThreadCountIsAUsageError() {
        CliRun r = CliRun.run("--threads", "-1", "check", "--backend", "cpu", "--op", "add");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ErrorReporter.EXIT_USAGE);
        assertThat(r.err()).contains("--threads must be >= 0");
    }
}
