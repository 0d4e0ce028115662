package dev.audioengine.cli;

import dev.audioengine.api.exec.UnsupportedOpException;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.model.MissingDependencyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns failures into exit codes and messages. Usage errors: exit 2 with the message and a
 * pointer to --help. Requests that cannot be served (backend unavailable, out of device memory,
 * unsupported op with --fallback fail, bad input files, invalid arguments, a system library a
 * model needs missing, such as espeak-ng): exit 1 with the message alone, the stack trace only
 * under --log debug. Anything else is a bug: exit 1 with the full stack trace.
 */
public final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    private final Supplier<LogLevel> logLevel;

    ErrorReporter(Supplier<LogLevel> logLevel) {
        this.logLevel = logLevel;
    }

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
        if (ex instanceof UsageError
                || ex instanceof dev.audioengine.api.spi.UnknownOptionException
                || ex instanceof dev.audioengine.api.spi.InvalidOptionValueException) {
            err.println("error: " + ex.getMessage());
            err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
            err.flush();
            return EXIT_USAGE;
        }
        if (ex instanceof InputsFailed) { // each was reported as it failed, with what to do
            err.println("error: " + ex.getMessage());
            err.flush();
            return EXIT_FAILURE;
        }
        if (isUserError(ex)) {
            err.println("error: " + message(ex));
            if (logLevel.get() == LogLevel.DEBUG) ex.printStackTrace(err);
            // where an unavailable backend or a missing library was found helps nobody: the message says what to
            // install
            else if (!(ex instanceof BackendUnavailableException || ex instanceof MissingDependencyException)) {
                err.println("(--log debug shows where it happened)");
            }
        } else {
            err.println("error: internal error (please report it with this trace): " + ex);
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_FAILURE;
    }

    /**
     * The exception's message, with what the JDK leaves out of its file errors: NoSuchFileException's message is the
     * bare path, AccessDeniedException's too.
     */
    public static String message(Throwable ex) {
        Throwable e = ex instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : ex;
        String m = String.valueOf(e.getMessage()).stripTrailing();
        return switch (e) {
            case java.nio.file.NoSuchFileException n ->
                n.getReason() != null ? n.getFile() + ": " + n.getReason() : "no such file: " + n.getFile();
            case java.nio.file.AccessDeniedException a -> "permission denied: " + a.getFile();
            case java.nio.file.FileSystemException f
            when f.getReason() != null && f.getFile() != null -> f.getFile() + ": " + f.getReason();
            default -> m;
        };
    }

    /** What a person is told when the Java heap ran out, instead of the JVM's trace. */
    static String outOfMemory(OutOfMemoryError e) {
        return "error: out of Java heap memory (" + e.getMessage()
                + "); give the JVM more, e.g. AUDIOENGINE_JAVA_OPTS=-Xmx8g, " + "or process shorter inputs";
    }

    /** Errors caused by the request or the environment, whose message already says what to do. */
    static boolean isUserError(Throwable ex) {
        return ex instanceof BackendUnavailableException
                || ex instanceof OutOfDeviceMemoryException
                || ex instanceof UnsupportedOpException
                || ex instanceof IllegalArgumentException
                || ex instanceof IOException
                || ex instanceof UncheckedIOException
                || ex instanceof MissingDependencyException
                || ex instanceof dev.audioengine.model.NoFamilyException;
    }
}
