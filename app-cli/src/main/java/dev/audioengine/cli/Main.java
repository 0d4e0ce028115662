package dev.audioengine.cli;

import picocli.CommandLine;
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
            return commandLine(top).execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println(ErrorReporter.outOfMemory(e));
            return ErrorReporter.EXIT_FAILURE;
        }
    }

    /**
     * The configured command line around {@code top}, with the subcommands of the tools on the module path (see
     * ToolCommands): global options are validated and the log level applied before any subcommand runs, and errors
     * map to exit codes (see ErrorReporter).
     */
    public static CommandLine commandLine(AudioEngineCommand top) {
        CommandLine cmd = new CommandLine(top);
        ToolCommands.install(cmd);
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
