package dev.audioengine.tools;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.spi.KernelCompiler;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.UsageError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code audioengine kernels compile --backend hip --arch gfx1030}: compiles every kernel source of a
 * GPU backend for the named architectures with the vendor's run-time compiler, no device needed, and
 * reports each file's code-object size. Backends offer this through the KernelCompiler service.
 */
@Command(
        name = "kernels",
        sortOptions = false,
        description = {"Work with a GPU backend's kernel sources without a device.", ""})
final class KernelsCommand {

    @ParentCommand
    private CliContext parent;

    @Spec
    private CommandSpec spec;

    @Command(
            name = "compile",
            sortOptions = false,
            description = {
                "Compile every kernel source of the --backend (hip) for each --arch with the vendor's run-time "
                        + "compiler (hipRTC), as the backend would on a device of that architecture, and print each source's "
                        + "code-object size. Exit 1 when any source does not compile (its compiler log goes to stderr).",
                ""
            })
    int compile(
            @Option(
                            names = "--arch",
                            required = true,
                            split = ",",
                            paramLabel = "ARCH",
                            description = "Target architecture, e.g. gfx1030 or gfx90a; repeatable or a comma list.")
                    List<String> archs,
            @Option(
                            names = "--out",
                            paramLabel = "DIR",
                            description = "Also write each code object to DIR/ARCH/SOURCE.co.")
                    Path out)
            throws IOException {
        BackendType type = parent.globals().backend();
        KernelCompiler compiler = compilerFor(type);
        PrintWriter stdout = spec.commandLine().getOut(),
                stderr = spec.commandLine().getErr();
        String name;
        try {
            name = compiler.compilerName();
        } catch (IllegalStateException e) {
            stderr.println("error: " + e.getMessage());
            stderr.flush();
            return ErrorReporter.EXIT_FAILURE;
        }
        for (String arch : archs) {
            if (!compiler.architectures().contains(arch.split(":")[0])) {
                throw new UsageError(
                        name + " cannot target " + arch + "; it knows " + String.join(", ", compiler.architectures()));
            }
        }
        stdout.println(name);
        int failed = 0;
        for (String arch : archs) {
            stdout.println(arch + ":");
            int ok = 0;
            for (String source : compiler.sources()) {
                long start = System.nanoTime();
                try {
                    byte[] code = compiler.compile(source, arch);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    stdout.println(
                            String.format(Locale.ROOT, "  %-16s %9d bytes  %5.1f s", source, code.length, seconds));
                    if (out != null) {
                        Path file =
                                out.resolve(arch.replace(':', '_')).resolve(source.replaceAll("\\.cu$", "") + ".co");
                        Files.createDirectories(file.getParent());
                        Files.write(file, code);
                    }
                    ok++;
                } catch (IllegalStateException e) {
                    stdout.println(String.format(Locale.ROOT, "  %-16s FAILED (log on stderr)", source));
                    stderr.println("error: " + e.getMessage().stripTrailing());
                    failed++;
                }
            }
            stdout.println("  " + ok + " of " + compiler.sources().size() + " kernel sources compiled for " + arch);
        }
        stdout.flush();
        stderr.flush();
        return failed == 0 ? 0 : ErrorReporter.EXIT_FAILURE;
    }

    private KernelCompiler compilerFor(BackendType type) {
        List<KernelCompiler> all = new ArrayList<>();
        for (KernelCompiler c : ServiceLoader.load(KernelCompiler.class)) {
            if (c.type() == type) return c;
            all.add(c);
        }
        throw new ParameterException(
                spec.commandLine(),
                "kernels compile needs --backend naming a backend that compiles kernels "
                        + "at run time; "
                        + (all.isEmpty()
                                ? "none is on the module path"
                                : "available: "
                                        + String.join(
                                                ", ",
                                                all.stream()
                                                        .map(c -> c.type().cliName())
                                                        .toList()))
                        + " (got " + type.cliName() + ")");
    }
}
