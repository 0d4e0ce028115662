package dev.audioengine.cli;

import dev.audioengine.cli.spi.CliTool;
import java.util.List;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * Adds the subcommands of every {@link CliTool} on the module path (class path in tests). The diagnostics a source
 * checkout always has ({@code bench}, {@code check}, {@code kernels}) get a hidden stand-in when no tool brings them,
 * so that asking for one in a production image says what is missing instead of "unknown command".
 */
final class ToolCommands {
    private ToolCommands() {}

    /** Subcommands of the tools jar (audioengine-tools.jar, module dev.audioengine.tools). */
    static final List<String> DIAGNOSTICS = List.of("bench", "check", "kernels");

    static void install(CommandLine cmd) {
        for (Object sub : subcommands()) cmd.addSubcommand(sub);
        for (String name : DIAGNOSTICS) {
            if (!cmd.getSubcommands().containsKey(name)) cmd.addSubcommand(name, new NotInstalled());
        }
    }

    private static List<Object> subcommands() {
        List<Object> out = new java.util.ArrayList<>();
        for (CliTool tool : ServiceLoader.load(CliTool.class)) out.addAll(tool.subcommands());
        return out;
    }

    /** The names and aliases of the tools' subcommands, and the diagnostics' names, from their annotations. */
    static java.util.Set<String> names() {
        java.util.Set<String> names = new java.util.HashSet<>(DIAGNOSTICS);
        for (Object sub : subcommands()) {
            Command c = sub.getClass().getAnnotation(Command.class);
            if (c == null) continue; // a CommandLine or CommandSpec: picocli names it; it is found when parsing fails
            names.add(c.name());
            names.addAll(List.of(c.aliases()));
        }
        return names;
    }

    /** A diagnostic whose jar is absent: any use of it is a usage error (exit 2) that says how to get it. */
    @Command(hidden = true, description = "A diagnostic of the tools jar (audioengine-tools.jar), not installed here.")
    static final class NotInstalled implements Runnable {
        @Spec
        private CommandSpec spec;

        @Unmatched
        private List<String> args;

        @Override
        public void run() {
            throw new UsageError(message(spec.name()));
        }
    }

    static String message(String name) {
        return "'" + name + "' is a diagnostic of the tools jar (audioengine-tools.jar, module dev.audioengine.tools), "
                + "which this installation leaves out; use a build that keeps it: ./audioengine from a source checkout, "
                + "or an image made by scripts/dist without --no-tools";
    }
}
