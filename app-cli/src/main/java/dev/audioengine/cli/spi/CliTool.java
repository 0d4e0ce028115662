package dev.audioengine.cli.spi;

import java.util.List;

/**
 * Subcommands that a jar on the module path adds to the {@code audioengine} command, found through
 * {@link java.util.ServiceLoader}. The diagnostics ({@code bench}, {@code check}, {@code kernels}) arrive this way from
 * the tools jar, so a production image leaves them out by leaving that jar out.
 *
 * <p>Each object is a picocli command (a class annotated with {@code @Command}); it may declare
 * {@code @ParentCommand dev.audioengine.cli.CliContext} to reach the global options and the registries.
 */
public interface CliTool {

    /** The subcommands to add, in the order {@code audioengine --help} lists them. */
    List<Object> subcommands();
}
