package dev.audioengine.cli;

import dev.audioengine.cli.command.BackendsCommand;
import dev.audioengine.cli.command.ModelsCommand;
import dev.audioengine.cli.command.ServeCommand;
import dev.audioengine.cli.command.VoicesCommand;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.RunLast;

/** Entry point of the audioengine command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        // One line per record ("WARNING: ..."); must be set before java.util.logging formats anything.
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%6$s%n");
        }
        System.exit(execute(new AudioEngineCommand(), args));
    }

    /**
     * Runs the command {@code top} with {@code args} as {@code main} does, minus the exit: its exit status (a resident
     * process runs each job through here).
     */
    public static int execute(AudioEngineCommand top, String[] args) {
        try {
            return commandLine(top, args).execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println(ErrorReporter.outOfMemory(e));
            return ErrorReporter.EXIT_FAILURE;
        }
    }

    /**
     * The configured command line around {@code top}, with every subcommand, the tools' included (see ToolCommands):
     * global options are validated and the log level applied before any subcommand runs, and errors map to exit codes
     * (see ErrorReporter).
     */
    public static CommandLine commandLine(AudioEngineCommand top) {
        CommandLine cmd = configured(top);
        addSubcommands(cmd);
        return cmd;
    }

    /**
     * The command line that runs {@code args}: without subcommands when {@code args} run a task (or another use of
     * the top command alone), {@link #commandLine(AudioEngineCommand)} otherwise. picocli reads every option of every
     * subcommand by reflection when it builds them, about 0.1-0.2 s of a one-shot job's start on a 2-core VM
     * (docs/PERFORMANCE.md), and a --task job uses none of them. Whatever might need them gets them all: arguments
     * naming a subcommand (a word equal to one's name, even as an option's value), asking for help, naming no task
     * (the usage, which lists the subcommands, is shown then), or failing to parse without them (a misspelt
     * subcommand is then reported with picocli's suggestions, as before).
     */
    public static CommandLine commandLine(AudioEngineCommand top, String... args) {
        if (args.length == 0 || mayNeedSubcommands(args)) return commandLine(top);
        CommandLine alone = configured(top);
        try {
            CommandLine.ParseResult parsed = alone.parseArgs(args);
            // without a task the top command shows its usage, which lists the subcommands
            if (parsed.hasMatchedOption("--task") || parsed.isVersionHelpRequested()) return alone;
        } catch (ParameterException e) {
            // reported by the command line with them all
        }
        return commandLine(top);
    }

    private static boolean mayNeedSubcommands(String[] args) {
        java.util.Set<String> names = new java.util.HashSet<>(SUBCOMMAND_NAMES);
        names.addAll(ToolCommands.names());
        for (String a : args) {
            if (names.contains(a) || a.equals("-h") || a.equals("--help") || a.equals("help")) return true;
            if (a.equals("--")) break; // past it, words are values
        }
        return false;
    }

    /** The subcommands the top command always has, in the order --help lists them; the tools' follow. */
    private static final List<Class<?>> SUBCOMMANDS =
            List.of(BackendsCommand.class, ModelsCommand.class, VoicesCommand.class, ServeCommand.class);

    /** Their names and aliases, read from their annotations (cheap: picocli's model of them is what costs). */
    private static final List<String> SUBCOMMAND_NAMES = SUBCOMMANDS.stream()
            .map(c -> c.getAnnotation(Command.class))
            .flatMap(a -> java.util.stream.Stream.concat(
                    java.util.stream.Stream.of(a.name()), java.util.Arrays.stream(a.aliases())))
            .toList();

    private static void addSubcommands(CommandLine cmd) {
        for (Class<?> c : SUBCOMMANDS) cmd.addSubcommand(c);
        ToolCommands.install(cmd);
    }

    private static CommandLine configured(AudioEngineCommand top) {
        CommandLine cmd = new CommandLine(top);
        ErrorReporter errors = new ErrorReporter(() -> top.globals().log());
        cmd.setParameterExceptionHandler(errors);
        cmd.setExecutionExceptionHandler(errors);
        cmd.setExecutionStrategy(parseResult -> {
            try {
                top.globals().validate();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(
                        parseResult.subcommand() != null
                                ? parseResult.subcommand().commandSpec().commandLine()
                                : cmd,
                        e.getMessage(),
                        e);
            }
            top.globals().log().apply();
            return new RunLast().execute(parseResult);
        });
        return cmd;
    }
}
