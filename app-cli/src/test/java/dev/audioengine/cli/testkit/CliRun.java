package dev.audioengine.cli.testkit;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.cli.AudioEngineCommand;
import dev.audioengine.cli.Main;
import dev.audioengine.model.FamilyRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Supplier;
import picocli.CommandLine;

/** Runs the audioengine command in-process, as Main does minus System.exit, capturing both streams. */
public record CliRun(int exit, String out, String err, AudioEngineCommand top) {

    public static CliRun run(String... args) {
        return run(BackendRegistry::load, args);
    }

    public static CliRun run(Supplier<BackendRegistry> registry, String... args) {
        return run(registry, FamilyRegistry::load, args);
    }

    /** With the model families a test brings (a fake one) instead of those on the class path. */
    public static CliRun run(FamilyRegistry families, String... args) {
        return run(BackendRegistry::load, () -> families, args);
    }

    public static CliRun run(Supplier<BackendRegistry> registry, Supplier<FamilyRegistry> families, String... args) {
        return run(true, registry, families, args);
    }

    /**
     * As {@code Main} runs {@code args} when {@code asMain} (a command line with only the subcommands the arguments may
     * need), or on the command line with every subcommand.
     */
    public static CliRun run(
            boolean asMain, Supplier<BackendRegistry> registry, Supplier<FamilyRegistry> families, String... args) {
        AudioEngineCommand top = new AudioEngineCommand(registry, families);
        CommandLine cmd = asMain ? Main.commandLine(top, args) : Main.commandLine(top);
        StringWriter out = new StringWriter(), err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new CliRun(exit, out.toString(), err.toString(), top);
    }

    @Override
    public String toString() {
        return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
