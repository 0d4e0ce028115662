/**
 * Extending the {@code audioengine} command: a jar on its module path that provides {@link
 * dev.audioengine.cli.spi.CliTool} adds subcommands, as the diagnostics jar does for {@code bench}, {@code check} and
 * {@code kernels}.
 */
package dev.audioengine.cli.spi;
