package dev.audioengine.cli.command;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.GlobalOptions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Lists every discovered backend with its probe result. With an explicit --backend (or a
 * --device other than 0) it also performs the selection a model command would: the chosen
 * backend is marked and named, and an unservable request exits 1 with the registry's
 * explanation on stderr after the listing.
 */
@Command(
        name = "backends",
        sortOptions = false,
        description = {
            "List the backends found on the module path (or class path): availability, devices, "
                    + "the reason an unavailable one is unavailable, and verified capabilities.",
            "With --backend (or --device), also select as a model command would: the selected backend is "
                    + "marked '*' and named below the table; a requested backend that cannot be served is marked '!' "
                    + "and the command exits 1 with the registry's explanation on stderr.",
            ""
        })
public final class BackendsCommand implements Callable<Integer> {

    @ParentCommand
    private CliContext parent;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--json",
            description = "Print a JSON array instead of the table: one object per backend with "
                    + "name, type, registryName, available, reason, devices [{index, name, arch, memoryTotal, memoryFree}] "
                    + "and capabilities. Selection errors still go to stderr with exit 1.")
    private boolean json;

    @Override
    public Integer call() {
        GlobalOptions g = parent.globals();
        BackendRegistry registry = parent.registry();
        List<BackendEntry> entries = BackendEntry.of(registry);

        BackendRegistry.Selection selection = null;
        BackendUnavailableException failure = null;
        if (g.backendGiven() || g.device() != 0) {
            try {
                selection = registry.select(g.backend(), g.device());
            } catch (BackendUnavailableException e) {
                failure = e;
            }
        }

        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(BackendsJson.render(entries));
        } else {
            out.print(BackendsTable.render(
                    entries,
                    selection == null ? null : selection.provider(),
                    failure != null && g.backend() != BackendType.BEST_AVAILABLE ? g.backend() : null));
            if (selection != null) {
                out.println();
                out.println("selected: " + selection.provider().type().cliName() + " ("
                        + selection.provider().registryName()
                        + ") device " + selection.device().index() + " ("
                        + selection.device().name() + ")"
                        + (g.backend() == BackendType.BEST_AVAILABLE ? "; " + selection.why() : ""));
            }
        }
        out.flush();
        if (failure != null) throw failure; // reported by ErrorReporter: message on stderr, exit 1
        return 0;
    }
}
