package dev.audioengine.cli;

import dev.audioengine.api.exec.UnsupportedOpException;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * Turns failures into exit codes and messages. Usage errors: exit 2 with the message and a
 * pointer to --help. Requests that cannot be served (backend unavailable, out of device memory,
 * unsupported op with --fallback fail, bad input files, invalid arguments): exit 1 with the
 * message alone, the stack trace only under --log debug. Anything else is a bug: exit 1 with
 * the full stack trace.
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;

    private final Supplier<LogLevel> logLevel;

    ErrorReporter(Supplier<LogLevel> logLevel) { this.logLevel = logLevel; }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("error: " + ex.getMessage());
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
        err.flush();
        return EXIT_USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        if (isUserError(ex)) {
            err.println("error: " + String.valueOf(ex.getMessage()).stripTrailing());
            if (logLevel.get() == LogLevel.DEBUG) ex.printStackTrace(err);
            else if (!(ex instanceof BackendUnavailableException)) err.println("(--log debug shows where it happened)");
        } else {
            err.println("error: internal error (please report it with this trace): " + ex);
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_FAILURE;
    }

    /** Errors caused by the request or the environment, whose message already says what to do. */
    static boolean isUserError(Throwable ex) {
        return ex instanceof BackendUnavailableException
                || ex instanceof OutOfDeviceMemoryException
                || ex instanceof UnsupportedOpException
                || ex instanceof IllegalArgumentException
                || ex instanceof IOException
                || ex instanceof UncheckedIOException;
    }
}
