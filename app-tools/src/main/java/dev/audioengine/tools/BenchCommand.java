package dev.audioengine.tools;

import dev.audioengine.cli.CliContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code audioengine bench}: groups the benchmarks; on its own it shows which ones there are. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {"Benchmarks. --backend all puts every available backend side by side in one run.", ""},
        subcommands = {
            BenchOpsCommand.class,
            BenchVadCommand.class,
            BenchAsrCommand.class,
            BenchTtsCommand.class,
            BenchGemmCommand.class,
            BenchQuantCommand.class,
            BenchConvCommand.class
        })
final class BenchCommand implements Runnable {

    @ParentCommand
    CliContext parent;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
