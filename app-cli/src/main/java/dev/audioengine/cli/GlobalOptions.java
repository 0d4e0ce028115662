package dev.audioengine.cli;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.CapabilityOverrides;
import dev.audioengine.api.exec.FallbackPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.TypeConversionException;

/**
 * Options every command shares, spelled as audio.cpp spells them. Mixed into the top-level
 * command with scope INHERIT, so they may stand before or after the subcommand name; the
 * values always land in the top-level command's instance of this class.
 */
public final class GlobalOptions {

    /** Null until given, so commands can tell "cpu by default" from "--backend cpu". */
    private BackendType backend;

    /** --backend all: every available backend (check and bench ops only). */
    private boolean allBackends;

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            scope = ScopeType.INHERIT,
            converter = BackendChoiceConverter.class,
            description = "Backend to run on: " + BackendType.VALID_NAMES + " (rocm is hip). "
                    + "'best' picks a discrete GPU over an integrated GPU over the CPU and says which. "
                    + "An unavailable backend is an error, never a silent fallback. "
                    + "'all' (check and bench ops only) runs on every available backend. Default: cpu.")
    private void backend(String name) {
        allBackends = name.equals(ALL);
        backend = allBackends ? null : BackendType.parse(name);
    }

    @Option(
            names = "--device",
            paramLabel = "N[,N...]",
            split = ",",
            scope = ScopeType.INHERIT,
            description = "Device ordinal within the chosen backend (see 'audioengine backends'). 'serve' takes a "
                    + "list (0,1,...): a copy of each model per device, each request to the least loaded. Default: 0.")
    private List<Integer> devices = new ArrayList<>(List.of(0));

    @Option(
            names = "--threads",
            paramLabel = "N",
            scope = ScopeType.INHERIT,
            description = "CPU worker threads; 0 means all available processors. Default: 0.")
    private int threads = 0;

    @Option(
            names = "--capability",
            paramLabel = "+NAME|-NAME",
            scope = ScopeType.INHERIT,
            split = ",",
            parameterConsumer = CapabilitySwitches.class,
            description =
                    "Switch a capability on (+NAME) or off (-NAME) for this run; repeatable, comma lists allowed, "
                            + "e.g. --capability -FUSED_ATTENTION,+BF16_WEIGHTS. Effective set = backend-verified "
                            + "∩ used by the model, with these switches applied.")
    private List<String> capabilities = new ArrayList<>();

    @Option(
            names = "--log",
            paramLabel = "LEVEL",
            scope = ScopeType.INHERIT,
            converter = LogLevelConverter.class,
            description =
                    "Log level: error, warn, info or debug (debug also prints stack traces of errors). Default: warn.")
    private LogLevel log = LogLevel.WARN;

    @Option(
            names = "--fallback",
            paramLabel = "cpu|fail",
            scope = ScopeType.INHERIT,
            converter = FallbackConverter.class,
            description = "Ops the backend lacks: 'cpu' runs them on the CPU backend with explicit copies "
                    + "(listed in the run summary), 'fail' refuses to run the graph. Default: cpu.")
    private FallbackPolicy fallback = FallbackPolicy.CPU;

    @Option(
            names = "--option",
            paramLabel = "KEY=VALUE",
            scope = ScopeType.INHERIT,
            parameterConsumer = BackendOptions.class,
            description = "Backend-specific option, e.g. cuda.graphs=off; repeatable. Each backend documents its keys.")
    private Map<String, String> options = new LinkedHashMap<>();

    /** The requested backend type; CPU when none was given. */
    public BackendType backend() {
        if (allBackends) throw new UsageError("--backend all is only for 'check' and 'bench ops'; name one backend");
        return backend != null ? backend : BackendType.CPU;
    }

    /** Whether --backend was given explicitly. */
    public boolean backendGiven() {
        return backend != null || allBackends;
    }

    /** Whether --backend all was given (commands that accept it check this before {@link #backend()}). */
    public boolean allBackends() {
        return allBackends;
    }

    /** The first device of --device (the only one, for every command but serve). */
    public int device() {
        return devices.getFirst();
    }

    /** Every device --device names, in order. */
    public List<Integer> devices() {
        return List.copyOf(devices);
    }

    public int threads() {
        return threads;
    }

    /** Capability switches as typed ("+NAME" / "-NAME" / "NAME"), already validated. */
    public List<String> capabilities() {
        return List.copyOf(capabilities);
    }

    public LogLevel log() {
        return log;
    }

    public FallbackPolicy fallback() {
        return fallback;
    }

    public Map<String, String> options() {
        return Map.copyOf(options);
    }

    /**
     * Everything here that decides the engine a command opens (backend, devices, threads, capability switches, fallback,
     * backend options), as one string: a resident process keeps a model for the next job with the same.
     */
    public String engineKey() {
        // the fields, not backend(): this must not throw before the engine's own checks do
        return "backend=" + (allBackends ? ALL : backend) + " devices=" + devices + " threads=" + threads
                + " capabilities=" + capabilities + " fallback=" + fallback + " options="
                + new java.util.TreeMap<>(options);
    }

    /** Range checks that the option types cannot express; reported as usage errors (exit 2). */
    void validate() {
        for (int d : devices) if (d < 0) throw new IllegalArgumentException("--device must be >= 0, got " + d);
        if (new java.util.HashSet<>(devices).size() < devices.size())
            throw new IllegalArgumentException("--device names a device twice: " + devices);
        if (threads < 0)
            throw new IllegalArgumentException("--threads must be >= 0 (0 = all processors), got " + threads);
        CapabilityOverrides.parse(capabilities); // rejects a capability switched both on and off
    }

    static final String ALL = "all";

    /** A backend name, or "all"; rejected names are usage errors listing the valid ones. */
    static final class BackendChoiceConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.trim().equalsIgnoreCase(ALL)) return ALL;
            try {
                BackendType.parse(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /*
     * The repeatable options append through parameter consumers: picocli would otherwise start a
     * fresh collection when an inherited option first appears after the subcommand name, dropping
     * the values given before it ("--capability -A backends --capability +B" must keep both).
     */

    /** Appends each comma-separated switch, checking its capability name now so a typo is a usage error. */
    static final class CapabilitySwitches implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            String value = pop(args, argSpec, commandSpec);
            List<String> target = argSpec.getValue();
            for (String item : value.split(",")) {
                String s = item.trim();
                if (s.isEmpty()) continue;
                try {
                    CapabilityOverrides.parse(List.of(s));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(
                            commandSpec.commandLine(), "Invalid value for option '--capability': " + e.getMessage());
                }
                target.add(s);
            }
        }
    }

    /** Puts one KEY=VALUE pair; a later pair with the same key wins. */
    static final class BackendOptions implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            String value = pop(args, argSpec, commandSpec);
            int eq = value.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(
                        commandSpec.commandLine(),
                        "Invalid value for option '--option': '" + value + "' is not KEY=VALUE (e.g. cuda.graphs=off)");
            }
            Map<String, String> target = argSpec.getValue();
            target.put(value.substring(0, eq).trim(), value.substring(eq + 1).trim());
        }
    }

    private static String pop(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
        if (args.isEmpty()) {
            throw new ParameterException(
                    commandSpec.commandLine(),
                    "Missing value for option '" + ((OptionSpec) argSpec).longestName() + "' (" + argSpec.paramLabel()
                            + ")");
        }
        return args.pop();
    }

    static final class LogLevelConverter implements ITypeConverter<LogLevel> {
        @Override
        public LogLevel convert(String value) {
            return LogLevel.parse(value);
        }
    }

    static final class FallbackConverter implements ITypeConverter<FallbackPolicy> {
        @Override
        public FallbackPolicy convert(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "cpu" -> FallbackPolicy.CPU;
                case "fail" -> FallbackPolicy.FAIL;
                default -> throw new TypeConversionException("unknown fallback '" + value + "'; valid: cpu, fail");
            };
        }
    }
}
