package dev.audioengine.cli;

import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine.TypeConversionException;

/**
 * The --log levels and their java.util.logging equivalents. System.Logger in the engine
 * routes to java.util.logging, so setting the root logger and its handlers is enough.
 */
public enum LogLevel {
    ERROR(Level.SEVERE),
    WARN(Level.WARNING),
    INFO(Level.INFO),
    DEBUG(Level.FINE);

    private final Level julLevel;

    LogLevel(Level julLevel) {
        this.julLevel = julLevel;
    }

    static LogLevel parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("warning")) return WARN;
        for (LogLevel l : values()) if (l.name().toLowerCase(Locale.ROOT).equals(v)) return l;
        throw new TypeConversionException("unknown log level '" + value + "'; valid: error, warn, info, debug");
    }

    /** Applies this level to the root logger and every root handler (the console handler filters too). */
    void apply() {
        Logger root = Logger.getLogger("");
        root.setLevel(julLevel);
        for (Handler h : root.getHandlers()) h.setLevel(julLevel);
    }
}
